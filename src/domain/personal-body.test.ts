import { describe, expect, it } from 'vitest';
import { maskPersonalBody } from './personal-body';

/** A candidate batch as the portal sends it: the candidate catalog's wire keys. */
const candidateBatch = [
  {
    requirementid: 4711,
    firstname: 'Jane',
    lastname: 'Doe',
    candemail: 'jane.doe@example.com',
    engagementtype: 1,
    vendorcandidateid: 'V-2026-17',
    billrate: 95.5,
    payrate: '70.00',
    answer1: 'Yes, I hold a clearance.',
    candidatecomments: '',
  },
];

describe('maskPersonalBody', () => {
  it('masks every personal value of a candidate batch and keeps the rest', () => {
    const { text, masked, reading } = maskPersonalBody(JSON.stringify(candidateBatch));
    expect(reading).toBe('json');
    // firstname, lastname, candemail, vendorcandidateid, billrate, payrate, answer1; the blank
    // comment says nothing about anyone.
    expect(masked).toBe(7);
    expect(JSON.parse(text)).toEqual([
      {
        requirementid: 4711,
        firstname: 'J•••',
        lastname: 'D••',
        candemail: 'j•••@example.com',
        engagementtype: 1,
        vendorcandidateid: '•••',
        billrate: '•••',
        payrate: '•••',
        answer1: '•••',
        candidatecomments: '',
      },
    ]);
    expect(text).not.toContain('Jane');
    expect(text).not.toContain('jane.doe');
    expect(text).not.toContain('95.5');
  });

  it('matches keys without regard to case, as a VMS record names them', () => {
    const record = { Records: [{ ReqId: 12, AltEmail: 'boss@example.org', TitleRole: 'Nurse' }] };
    const { text, masked } = maskPersonalBody(JSON.stringify(record, null, 2));
    expect(masked).toBe(1);
    expect(JSON.parse(text)).toEqual({
      Records: [{ ReqId: 12, AltEmail: 'b•••@example.org', TitleRole: 'Nurse' }],
    });
    // Indented as it came.
    expect(text).toContain('\n  "Records"');
  });

  it('masks the requisition people by name', () => {
    const { text } = maskPersonalBody(
      JSON.stringify([{ reqownerfirstname: 'Maria José', reqownerlastname: 'García López' }]),
    );
    expect(JSON.parse(text)).toEqual([
      { reqownerfirstname: 'M•••• J•••', reqownerlastname: 'G••••• L••••' },
    ]);
  });

  it('returns a body with nothing personal as it came, byte for byte', () => {
    const body = '{ "batchid": "B-1",  "status": "Pending" }';
    expect(maskPersonalBody(body)).toEqual({ text: body, masked: 0, reading: 'json' });
  });

  it('masks the pairs of a body cut at the size limit, even the value cut in half', () => {
    const whole = JSON.stringify(candidateBatch);
    const cut = whole.slice(0, whole.indexOf('jane.doe@') + 'jane.do'.length);
    const { text, masked, reading } = maskPersonalBody(cut);
    expect(reading).toBe('text');
    expect(masked).toBe(3);
    expect(text).toBe(
      '[{"requirementid":4711,"firstname":"J•••","lastname":"D••","candemail":"•••"',
    );
  });

  it('says a body that is not JSON was read as text, and masks the pairs it still shows', () => {
    const { text, masked, reading } = maskPersonalBody('oops "lastname": "Doe", nothing else');
    expect(reading).toBe('text');
    expect(masked).toBe(1);
    expect(text).toBe('oops "lastname": "D••", nothing else');
    expect(maskPersonalBody('<html>Bad gateway</html>')).toEqual({
      text: '<html>Bad gateway</html>',
      masked: 0,
      reading: 'text',
    });
  });
});

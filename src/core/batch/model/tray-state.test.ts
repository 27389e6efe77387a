import { describe, expect, it } from 'vitest';
import type { TrayItem, TrayState } from './tray-state';
import {
  addItem,
  addReplay,
  addResends,
  duplicateItem,
  emptyTray,
  isLocked,
  itemsToSend,
  markLost,
  removeItem,
  removeSent,
  replaceFromJson,
  replaceItem,
  restoreItem,
  reviseItem,
  settleLost,
  splitItem,
  trayPayload,
  trayStateSchema,
  withSendKey,
} from './tray-state';

const item = (id: string, title = id): TrayItem => ({
  id,
  wire: { requesttype: 'I', titlerole: title },
  addedAt: '2026-11-21T10:00:00Z',
});
const tray = (...ids: string[]): TrayState => ({
  items: ids.map((id) => item(id)),
  sendKey: 'key-1',
});
const ids = (state: TrayState) => state.items.map((entry) => entry.id);

describe('tray state', () => {
  it('appends items in order and gives the exact array to send', () => {
    const state = addItem(addItem(emptyTray, item('a', 'First')), item('b', 'Second'));
    expect(trayPayload(state)).toEqual([
      { requesttype: 'I', titlerole: 'First' },
      { requesttype: 'I', titlerole: 'Second' },
    ]);
  });

  it('replaces an edited item in place, or appends it when it has gone', () => {
    const edited = replaceItem(tray('a', 'b'), 'a', { titlerole: 'Changed' }, 'now');
    expect(ids(edited)).toEqual(['a', 'b']);
    expect(edited.items[0]?.wire).toEqual({ titlerole: 'Changed' });
    expect(ids(replaceItem(tray('b'), 'a', { titlerole: 'x' }, 'now'))).toEqual(['b', 'a']);
  });

  it('duplicates right after the original, as a separate copy', () => {
    const state = duplicateItem(tray('a', 'b'), 'a', 'copy', 'now');
    expect(ids(state)).toEqual(['a', 'copy', 'b']);
    expect(state.items[1]?.wire).not.toBe(state.items[0]?.wire);
    expect(duplicateItem(tray('a'), 'missing', 'copy', 'now')).toEqual(tray('a'));
  });

  it('removes an item and can put it back where it was', () => {
    const { state, removed } = removeItem(tray('a', 'b', 'c'), 'b');
    expect(ids(state)).toEqual(['a', 'c']);
    expect(removed?.index).toBe(1);
    expect(ids(restoreItem(state, removed!))).toEqual(['a', 'b', 'c']);
    expect(ids(restoreItem(tray('a', 'b', 'c'), removed!))).toEqual(['a', 'b', 'c']);
  });

  it('keeps the send key for a retry, and drops it when the items change', () => {
    const keyed = withSendKey({ ...tray('a'), sendKey: null }, 'fresh');
    expect(keyed.sendKey).toBe('fresh');
    expect(withSendKey(keyed, 'other').sendKey).toBe('fresh');
    expect(addItem(keyed, item('b')).sendKey).toBeNull();
    expect(removeItem(keyed, 'a').state.sendKey).toBeNull();
    expect(replaceItem(keyed, 'a', {}, 'now').sendKey).toBeNull();
    expect(duplicateItem(keyed, 'a', 'c', 'now').sendKey).toBeNull();
  });

  it('after a 202 removes only the items that were sent', () => {
    const state = removeSent(tray('a', 'b', 'late'), ['a', 'b']);
    expect(ids(state)).toEqual(['late']);
    expect(state.sendKey).toBeNull();
  });

  it('reads stored trays and refuses a shape it does not know', () => {
    expect(trayStateSchema.safeParse(tray('a')).success).toBe(true);
    expect(trayStateSchema.safeParse({ items: [{ id: 'a', wire: { n: 1 } }] }).success).toBe(false);
  });
});

describe('a send whose answer was lost', () => {
  const lostTray = (): TrayState =>
    markLost(tray('a', 'b', 'c'), {
      key: 'key-1',
      itemIds: ['a', 'b'],
      at: '2026-11-22T10:00:00.000Z',
      message: 'no answer',
    });

  it('locks the sent items against edit, removal and splitting, and keeps their key', () => {
    const state = lostTray();
    expect(state.sendKey).toBe('key-1');
    expect(isLocked(state, 'a')).toBe(true);
    expect(isLocked(state, 'c')).toBe(false);
    expect(replaceItem(state, 'a', { titlerole: 'changed' }, 'now')).toBe(state);
    expect(removeItem(state, 'b').state).toBe(state);
    expect(splitItem(state, 'a', [{ id: 'x', wire: {} }])).toBe(state);
    expect(reviseItem(state, 'a', (entry) => ({ ...entry, wire: {} }))).toBe(state);
  });

  it('sends the lost items again, exactly, even after another item was added', () => {
    const state = addItem(lostTray(), item('d'));
    expect(state.sendKey).toBe('key-1');
    expect(itemsToSend(state).map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(trayPayload(state)).toEqual([
      { requesttype: 'I', titlerole: 'a' },
      { requesttype: 'I', titlerole: 'b' },
    ]);
  });

  it('lets an unlocked item change without dropping the lost key', () => {
    const state = replaceItem(lostTray(), 'c', { titlerole: 'C2' }, 'now');
    expect(state.sendKey).toBe('key-1');
    expect(state.items[2]?.wire).toEqual({ titlerole: 'C2' });
  });

  it('is settled by removing what arrived and unlocking the rest under a new key', () => {
    const settled = settleLost(lostTray(), ['a']);
    expect(ids(settled)).toEqual(['b', 'c']);
    expect(settled.lost).toBeNull();
    expect(settled.sendKey).toBeNull();
    expect(isLocked(settled, 'b')).toBe(false);
  });

  it('ends when the same send is accepted', () => {
    const accepted = removeSent(lostTray(), ['a', 'b']);
    expect(ids(accepted)).toEqual(['c']);
    expect(accepted.lost).toBeNull();
  });
});

describe('splitItem', () => {
  it('puts the parts where the item was, keeping what it was loaded from', () => {
    const loaded = { id: '40001', updatedAt: 't', values: { titlerole: 'X' } };
    const state: TrayState = { ...tray('a', 'b'), items: [item('a'), { ...item('b'), loaded }] };
    const split = splitItem(state, 'b', [
      { id: 'b1', wire: { clientcontactid: 'c' } },
      { id: 'b2', wire: { reqownerid: 'o' } },
    ]);
    expect(ids(split)).toEqual(['a', 'b1', 'b2']);
    expect(split.items[2]).toMatchObject({ wire: { reqownerid: 'o' }, loaded });
    expect(split.sendKey).toBeNull();
  });
});

describe('resends (Fix all failed)', () => {
  const resend = (id: string, batchId: string, row: number): TrayItem => ({
    ...item(id),
    resendOf: { batchId, row, message: `row ${row} refused` },
  });

  it('adds each failed row once, after what the tray holds, and drops the send key', () => {
    const { state, added } = addResends(tray('a'), [
      resend('r1', 'B1', 2),
      resend('r2', 'B1', 3),
      resend('r3', 'B1', 2),
    ]);
    expect(added).toBe(2);
    expect(ids(state)).toEqual(['a', 'r1', 'r2']);
    expect(state.sendKey).toBeNull();
  });

  it('does not add a row already in the tray as a resend, and then leaves the tray as it was', () => {
    const before = addItem(tray('a'), resend('r1', 'B1', 2));
    const { state, added } = addResends(before, [resend('again', 'B1', 2)]);
    expect(added).toBe(0);
    expect(state).toBe(before);
  });

  it('keeps the resend mark when the item is edited, and stores it', () => {
    const before = addItem(emptyTray, resend('r1', 'B1', 2));
    const edited = replaceItem(before, 'r1', { requesttype: 'I', titlerole: 'Fixed' }, 'now');
    expect(edited.items[0]?.resendOf).toEqual({ batchId: 'B1', row: 2, message: 'row 2 refused' });
    expect(trayStateSchema.parse(JSON.parse(JSON.stringify(edited)))).toEqual(edited);
  });
});

describe('an item put back as the VMS refused it', () => {
  const refused: TrayItem = {
    ...item('r1', 'Refused'),
    resendOf: { batchId: 'B1', row: 2, message: 'reqclassid: 999 is not a req class' },
    asRefused: true,
  };

  it('stays so when saved unchanged, and is no longer so once edited', () => {
    const before = addItem(emptyTray, refused);
    const same = replaceItem(before, 'r1', { ...refused.wire }, 'now');
    expect(same.items[0]?.asRefused).toBe(true);
    const edited = replaceItem(before, 'r1', { ...refused.wire, titlerole: 'Fixed' }, 'now');
    expect(edited.items[0]?.asRefused).toBeUndefined();
    expect(edited.items[0]?.resendOf).toEqual(refused.resendOf);
    expect(trayStateSchema.parse(JSON.parse(JSON.stringify(same)))).toEqual(same);
  });
});

describe('the JSON edited by hand', () => {
  const counter = () => {
    let n = 0;
    return () => `new-${++n}`;
  };

  it('puts element i in place of item i, keeps what it was loaded from, adds and drops the rest', () => {
    const loaded = { id: '40001', updatedAt: '2026-11-20T10:00:00Z', values: { titlerole: 'Old' } };
    const before: TrayState = {
      items: [{ ...item('a'), loaded }, item('b'), item('c')],
      sendKey: 'key-1',
    };
    const after = replaceFromJson(
      before,
      [
        { wire: { titlerole: 'A2' } },
        { wire: { titlerole: 'B2' }, raw: { titlerole: 'B2', n: 3 } },
      ],
      '2026-11-23T10:00:00Z',
      counter(),
    );
    expect(ids(after)).toEqual(['a', 'b']);
    expect(after.items[0]?.loaded).toBe(loaded);
    // What is sent: the raw value where there is one, exactly as written.
    expect(trayPayload(after)).toEqual([{ titlerole: 'A2' }, { titlerole: 'B2', n: 3 }]);
    // A change to the items is a new batch: the old key must not be reused.
    expect(after.sendKey).toBeNull();

    const longer = replaceFromJson(
      after,
      [{ wire: {} }, { wire: {} }, { wire: { x: '1' } }],
      'now',
      counter(),
    );
    expect(ids(longer)).toEqual(['a', 'b', 'new-1']);
    // A raw element edited back into an object of text values is no longer raw.
    expect(longer.items[1]?.raw).toBeUndefined();
  });

  it('leaves a tray whose last send was lost untouched', () => {
    const lost = markLost(tray('a'), { key: 'k', itemIds: ['a'], at: 'then', message: 'lost' });
    expect(replaceFromJson(lost, [{ wire: {} }], 'now', counter())).toBe(lost);
  });

  it('appends a recorded request to send again, marked as its replay until it is sent', () => {
    const state = addReplay(
      tray('a'),
      [{ wire: { t: '1' } }, { wire: {}, raw: 5 }],
      42,
      'now',
      counter(),
    );
    expect(ids(state)).toEqual(['a', 'new-1', 'new-2']);
    expect(state.replayOf).toBe(42);
    expect(trayPayload(state).slice(1)).toEqual([{ t: '1' }, 5]);
    expect(trayStateSchema.parse(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(removeSent(state, ['a', 'new-1', 'new-2']).replayOf).toBeNull();
  });
});

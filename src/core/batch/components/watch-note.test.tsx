// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WatchNote } from './watch-note';

afterEach(cleanup);

const text = (element: React.ReactElement) => render(element).container.textContent;

describe('what the results say of the portal’s watch', () => {
  it('a batch given up reads still pending after the watch’s hours, and that nobody checks it', () => {
    expect(
      text(
        <WatchNote
          watch={{ state: 'gave_up', checks: 40, problem: 'still pending at the VMS after 72 h' }}
          hasRows
        />,
      ),
    ).toBe(
      'Still pending at the VMS after 72 h: the portal stopped checking this batch. Look its items up in the VMS before sending any of them again.',
    );
  });

  it('a check that told nothing says why, and that another comes', () => {
    expect(
      text(
        <WatchNote
          watch={{ state: 'watching', checks: 3, problem: 'the results call was answered 503' }}
          hasRows={false}
        />,
      ),
    ).toBe(
      'The portal’s last check of this batch got no results (the results call was answered 503); it checks again shortly.',
    );
  });

  it('says the portal is checking until its first answer, then leaves the rows to speak', () => {
    const watching = { state: 'watching', checks: 0, problem: null } as const;
    expect(text(<WatchNote watch={watching} hasRows={false} />)).toBe(
      'The portal is checking this batch at the VMS; the results show here as soon as it answers.',
    );
    cleanup();
    expect(text(<WatchNote watch={{ ...watching, checks: 2 }} hasRows />)).toBe('');
    cleanup();
    expect(text(<WatchNote watch={{ state: 'settled', checks: 4, problem: null }} hasRows />)).toBe(
      '',
    );
    cleanup();
    // Read from the VMS itself: nothing to say of a watch.
    expect(text(<WatchNote watch={null} hasRows />)).toBe('');
  });
});

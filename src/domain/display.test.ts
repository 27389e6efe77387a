import { describe, expect, it } from 'vitest';
import {
  defaultDisplay,
  displayAttributes,
  displayCookieValue,
  displayFromCookie,
  themeValues,
} from './display';

describe('the display cookie', () => {
  it('says every setting back as it was', () => {
    for (const theme of themeValues) {
      for (const wireNames of [false, true]) {
        expect(displayFromCookie(displayCookieValue({ theme, wireNames }))).toEqual({
          theme,
          wireNames,
        });
      }
    }
    expect(displayCookieValue({ theme: 'dark', wireNames: true })).toBe('dark.wire');
  });

  it('reads anything it does not plainly say as the defaults', () => {
    for (const value of [
      undefined,
      '',
      'Dark',
      'dark.wire.wire',
      'dark.shown',
      'dark"><script>alert(1)</script>',
      '.wire',
    ]) {
      expect(displayFromCookie(value), String(value)).toEqual(defaultDisplay);
    }
  });
});

describe('the attributes of <html>', () => {
  it('name a chosen theme and shown wire names, and nothing for the system’s theme', () => {
    expect(displayAttributes({ theme: 'system', wireNames: false })).toEqual({});
    expect(displayAttributes({ theme: 'dark', wireNames: true })).toEqual({
      'data-theme': 'dark',
      'data-wire-names': 'shown',
    });
    expect(displayAttributes({ theme: 'light', wireNames: false })).toEqual({
      'data-theme': 'light',
    });
  });
});

import { describe, expect, it } from 'vitest';
import { billRateNote } from './bill-rate';

const capped = { hourlyHigh: '65.00', hourlyLow: '50.00', maximumBillRate: '0' };

describe('billRateNote', () => {
  it('gives the band and the cap, and warns once the typed rate is above the cap', () => {
    expect(billRateNote(capped, '')).toEqual({
      band: 'This requisition’s band: 50.00 to 65.00 an hour; no candidate above 65.00.',
      warning: null,
    });
    expect(billRateNote(capped, '65')?.warning).toBeNull();
    expect(billRateNote(capped, '65.01')?.warning).toBe(
      '65.01 is above the hourly high of 65.00, which this requisition does not allow: the VMS will likely answer Error.',
    );
  });

  it('does not warn where rates above the high are allowed or not configured', () => {
    for (const maximumBillRate of ['1', '']) {
      const note = billRateNote({ ...capped, maximumBillRate }, '90');
      expect(note?.band).toBe('This requisition’s band: 50.00 to 65.00 an hour.');
      expect(note?.warning).toBeNull();
    }
  });

  it('says nothing without a band or a requisition', () => {
    expect(billRateNote({ hourlyHigh: '', hourlyLow: '', maximumBillRate: '0' }, '10')).toBeNull();
    expect(billRateNote(null, '10')).toBeNull();
  });
});

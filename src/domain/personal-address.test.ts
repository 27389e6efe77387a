import { describe, expect, it } from 'vitest';
import { addressValues, maskPersonalAddress, rewriteAddressValues } from './personal-address';

const search = '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=2001';

describe('maskPersonalAddress', () => {
  it('masks a filter’s value compared with a personal field, keeping the rest byte for byte', () => {
    const address = `${search}&filterfield=candemail&filteroperator=%3D&filtervalue=jane.doe%40example.com`;
    expect(maskPersonalAddress(address)).toEqual({
      text: `${search}&filterfield=candemail&filteroperator=%3D&filtervalue=j•••%40example.com`,
      masked: 1,
    });
  });

  it('reads the filter’s field in any case, as the VMS answers it or as the form sends it', () => {
    expect(maskPersonalAddress('/x?FilterField=FirstName&FilterValue=Jane').text).toBe(
      '/x?FilterField=FirstName&FilterValue=J•••',
    );
  });

  it('keeps a filter’s value compared with a field that is not personal', () => {
    for (const address of [
      `${search}&filterfield=Req_Id&filteroperator=%3D&filtervalue=40001`,
      `${search}&filterfield=Req_Created_Date_Time&filteroperator=%3E&filtervalue=2026-03-02`,
      `${search}&filterfield=requirementid&filtervalue=40003`,
    ]) {
      expect(maskPersonalAddress(address)).toEqual({ text: address, masked: 0 });
    }
  });

  it('masks a filter’s value when its field is unknown or missing: what it holds cannot be told', () => {
    expect(maskPersonalAddress('/x?filterfield=Nickname&filtervalue=Janey').text).toBe(
      '/x?filterfield=Nickname&filtervalue=•••',
    );
    expect(maskPersonalAddress('/x?filtervalue=jane%40example.com').text).toBe(
      '/x?filtervalue=•••',
    );
  });

  it('masks a parameter named as a personal field, a space written as + included', () => {
    expect(
      maskPersonalAddress('/api/vms/x?candemail=jane%40example.com&lastname=van+der+Berg&org=1'),
    ).toEqual({
      text: '/api/vms/x?candemail=j•••%40example.com&lastname=v••%20d••%20B•••&org=1',
      masked: 2,
    });
  });

  it('leaves an address without a query, or with blank values, as it is', () => {
    for (const address of [
      '/api/vms/candidates',
      '/x?candemail=',
      '/x?candemail',
      'https://vms.example/api/',
    ]) {
      expect(maskPersonalAddress(address)).toEqual({ text: address, masked: 0 });
    }
  });

  it('masks a value whose parameter name cannot be decoded', () => {
    expect(maskPersonalAddress('/x?%E0%A4%A=jane').text).toBe('/x?%E0%A4%A=•••');
  });
});

describe('finding and erasing in an address', () => {
  it('reads every query value decoded', () => {
    expect(addressValues('/x?a=1&filtervalue=jane.doe%40example.com&b=Jane+Doe')).toEqual([
      '1',
      'jane.doe@example.com',
      'Jane Doe',
    ]);
  });

  it('writes back only the values changed, encoded', () => {
    const erased = rewriteAddressValues(
      'https://vms.example/api/requisitions?filterfield=candemail&filtervalue=jane%40example.com#top',
      (value) => (value === 'jane@example.com' ? '[erased 2026-11-30]' : undefined),
    );
    expect(erased).toEqual({
      text: 'https://vms.example/api/requisitions?filterfield=candemail&filtervalue=%5Berased%202026-11-30%5D#top',
      changed: 1,
    });
  });
});

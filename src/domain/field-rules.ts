import { z } from 'zod';
import type { DateFormat, FieldDef } from './catalog-types';
import { dateFormatExample, parseWireDate } from './dates';

/**
 * The type, enumeration and bound rules for one field's value, with messages a recruiter
 * understands. A blank value ('' or only spaces) always passes here: whether a field must be
 * filled depends on the whole item (Insert or Amend, alternatives), so the item rules decide that.
 */
const wholeNumber = /^\d+$/;
const decimalNumber = /^\d+(?:\.\d+)?$/;
const emailAddress = z.regexes.email;

export function isBlank(value: string | undefined): boolean {
  return value === undefined || value.trim() === '';
}

export function describeOptions(def: FieldDef): string {
  const options = def.options ?? [];
  return options
    .map((option) =>
      option.value === option.label ? option.value : `${option.value} (${option.label})`,
    )
    .join(', ');
}

/** A number written with a decimal comma and no thousands separators: 7,5 or 42,50. */
const decimalComma = /^(-?\d+),(\d+)$/;

function boundsMessage(def: FieldDef): string {
  const { label, min, max, maxDecimals } = def;
  const decimals = maxDecimals === undefined ? '' : ` with at most ${maxDecimals} decimals`;
  if (min !== undefined && max !== undefined)
    return `${label} must be between ${min} and ${max}${decimals}`;
  if (min !== undefined) return `${label} must be at least ${min}${decimals}`;
  if (max !== undefined) return `${label} must be at most ${max}${decimals}`;
  return `${label} must have at most ${maxDecimals ?? 0} decimals`;
}

function checkBounds(def: FieldDef, value: string): string | null {
  const number = Number(value);
  if (def.min !== undefined && number < def.min) return boundsMessage(def);
  if (def.max !== undefined && number > def.max) return boundsMessage(def);
  if (def.maxDecimals !== undefined) {
    const decimals = value.split('.')[1]?.length ?? 0;
    if (decimals > def.maxDecimals) return boundsMessage(def);
  }
  return null;
}

/** The problem with `value` for field `def`, or null when it is acceptable (or blank). */
export function fieldProblem(def: FieldDef, value: string, dateFormat: DateFormat): string | null {
  if (isBlank(value)) return null;
  const { label } = def;

  if (def.options) {
    if (def.options.some((option) => option.value === value)) return null;
    return `${label} must be one of: ${describeOptions(def)}`;
  }

  switch (def.type) {
    case 'INTEGER':
      if (!wholeNumber.test(value)) {
        return def.min !== undefined || def.max !== undefined
          ? `${boundsMessage(def)} (a whole number, digits only)`
          : `${label} must be a whole number (digits only), e.g. 3`;
      }
      return checkBounds(def, value);
    case 'DECIMAL':
      if (!decimalNumber.test(value)) {
        // "7,5" is how much of the world writes 7.5, and how their spreadsheets save it.
        const comma = decimalComma.exec(value.trim());
        if (comma) {
          const [, whole = '', part = ''] = comma;
          // Three digits after the comma may be thousands (1,500) as well as a fraction (1,500 = 1.5).
          return part.length === 3
            ? `${label} has a comma in it (${value.trim()}): numbers take no thousands separator and a point for decimals; write ${whole}${part}, or ${whole}.${part} if the comma is a decimal comma`
            : `${label} is a number written with a decimal comma (${value.trim()}); write it with a point: ${whole}.${part}`;
        }
        return def.min !== undefined || def.max !== undefined
          ? boundsMessage(def)
          : `${label} must be a number such as 42 or 42.50 (digits and an optional decimal point)`;
      }
      return checkBounds(def, value);
    case 'DATE':
      if (parseWireDate(value, dateFormat) === null) {
        return `${label} must be a real date written ${dateFormat}, e.g. ${dateFormatExample(dateFormat)}`;
      }
      return null;
    case 'FLAG':
      // Every FLAG field in the spec lists its values, so `options` handled it above.
      return null;
    case 'STRING':
      if (def.format === 'email' && !emailAddress.test(value)) {
        return `${label} must be a valid e-mail address, like name@example.com`;
      }
      return null;
  }
}

import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import { zodResolver } from '@hookform/resolvers/zod';
import { get, type FieldError, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { afterPaintAndIdle } from '@/shared/lib/after-paint';

/** The longest a field's check waits for the page to have a moment after the key is drawn. */
const revalidationMaxWaitMs = 300;

type Conformance = (value: unknown) => boolean;
const never: Conformance = () => false;

/**
 * A test that is true only when zod would certainly accept a value for `schema` without an issue,
 * and that is plain to see: a string for a bare `z.string()`, one of the options of a `z.enum`,
 * arrays and objects made of those. It is false whenever it cannot tell (other kinds, checks,
 * strict objects): the caller then parses for real. Built once, as it runs on every keystroke.
 */
export function plainConformance(schema: z.ZodType): Conformance {
  if ((schema.def.checks?.length ?? 0) > 0) return never;
  return shapeConformance(schema);
}

/** As plainConformance, leaving out the checks of `schema` itself (not of its parts). */
function shapeConformance(schema: z.ZodType): Conformance {
  if (schema instanceof z.ZodString) return (value) => typeof value === 'string';
  if (schema instanceof z.ZodEnum) {
    const options = new Set<unknown>(schema.options);
    return (value) => options.has(value);
  }
  if (schema instanceof z.ZodArray) {
    // The forms are built with zod's classic API, whose parts are classic schemas too.
    const item = plainConformance(schema.element as z.ZodType);
    return (value) => Array.isArray(value) && value.every(item);
  }
  if (schema instanceof z.ZodObject) {
    if (schema.def.catchall !== undefined) return never; // strict or catch-all objects
    const fields = Object.entries(schema.shape).map(
      ([key, field]) => [key, plainConformance(field)] as const,
    );
    return (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      return fields.every(([key, conforms]) => conforms(record[key]));
    };
  }
  return never;
}

/** Whether a problem at `path` is one react-hook-form shows for the field `name`. */
const concerns = (path: string, name: string) =>
  path === name || path.startsWith(`${name}.`) || name.startsWith(`${path}.`);

/**
 * zodResolver for a form schema made of an object's shape and checks on the whole (the domain's
 * rules in a superRefine), cheaper while the user types. When react-hook-form re-validates one
 * field (as it does on each change once a submit has failed), and the values plainly have the
 * shape (every field still a string, every choice one of its options: what the inputs give), the
 * shape is not parsed again: only the checks run, on the same values. The problems found are the
 * same as a full parse finds (the checks run only on a value whose shape parsed), for less than
 * half the time per keystroke in a 100-field form. Submits and `trigger()` of the whole form parse
 * everything, as does any value that is not plainly of the shape.
 *
 * For one field, the answer holds that field's problems and, when the form has others, one of
 * them: react-hook-form reads only the field's own error from it, and whether the answer has any
 * error (its `isValid`). Turning every problem of a form with the error summary open into
 * react-hook-form's nested errors on each keystroke was most of the resolver's cost.
 */
export function fieldRevalidationResolver<S extends z.ZodObject>(
  schema: S,
): Resolver<z.input<S>, unknown, z.output<S>> {
  // zodResolver's overloads cannot resolve a generic schema's types; it is typed here once.
  type FormResolver = Resolver<z.input<S>, unknown, z.output<S>>;
  const whole = zodResolver(schema) as unknown as FormResolver;
  // The schema's own checks (its public `def`), on a value taken as it is.
  const checks = (schema.def.checks ?? []) as z.core.$ZodCheck<z.output<S>>[];
  const checksOnly = z.custom<z.output<S>>().check(...checks);
  const plainlyShaped = shapeConformance(schema);
  return async (values, context, options) => {
    const name = options.names?.length === 1 ? options.names[0] : undefined;
    if (name === undefined) return whole(values, context, options);
    // The keystroke's character is drawn first, and the field is checked when the page has a
    // moment. By then a quick typist may have typed again: react-hook-form ignores an answer for a
    // value that has changed since (the newer key's check follows), so that check is not made.
    const typed: unknown = get(values, name);
    await afterPaintAndIdle(revalidationMaxWaitMs);
    if (typed !== get(values, name)) return { values: {}, errors: {} };
    if (!plainlyShaped(values)) return whole(values, context, options);
    const result = await checksOnly.safeParseAsync(values);
    if (result.success) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values: result.data, errors: {} };
    }
    const errors: Record<string, FieldError> = {};
    let other = false;
    for (const issue of result.error.issues) {
      const path = issue.path.join('.');
      if (concerns(path, name) ? path in errors : other) continue;
      if (!concerns(path, name)) other = true;
      errors[path] = { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}

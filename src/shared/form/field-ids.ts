import type { FieldErrors, FieldValues } from 'react-hook-form';

/** The element id of a form field: `skills.2.description` → `field-skills-2-description`. */
export function fieldId(name: string): string {
  return `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

export function errorId(name: string): string {
  return `${fieldId(name)}-error`;
}

export function hintId(name: string): string {
  return `${fieldId(name)}-hint`;
}

export interface FormProblem {
  /** The form path, e.g. `skills.2.description`. */
  name: string;
  message: string;
}

function isLeaf(value: unknown): value is { message?: unknown; type?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'type' in value &&
    typeof (value as { type: unknown }).type === 'string'
  );
}

/**
 * react-hook-form's nested errors as a flat list of form paths with their messages. A field
 * array's own error (e.g. "at most 10 skills") sits under `root` of the array and is reported on
 * the array's name.
 */
export function flattenErrors<V extends FieldValues>(errors: FieldErrors<V>): FormProblem[] {
  const problems: FormProblem[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (node === null || typeof node !== 'object') return;
    if (isLeaf(node) && typeof node.message === 'string' && node.message !== '') {
      const last = path[path.length - 1];
      const name = (last === 'root' ? path.slice(0, -1) : path).join('.');
      problems.push({ name, message: node.message });
    }
    for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
      // `ref` holds the DOM element; `types` repeats messages.
      if (key === 'ref' || key === 'types' || key === 'message' || key === 'type') continue;
      walk(child, [...path, key]);
    }
  };
  walk(errors, []);
  return problems;
}

import { createContext, useContext } from 'react';
import { useWatch } from 'react-hook-form';

/**
 * On an Amend loaded from the VMS: the loaded value of each field, by form path. A field the user
 * empties is not sent (a blank means "leave unchanged"), so the form says so instead of letting
 * the user believe the value is cleared (decision 003).
 */
export const LoadedValuesContext = createContext<Readonly<Record<string, string>> | null>(null);

/** The note for one field whose loaded value (`useNotedValue`) is not blank. */
export function ClearedNote({ name, loaded }: { name: string; loaded: string }) {
  const value: unknown = useWatch({ name });
  if (typeof value !== 'string' || value.trim() !== '') return null;
  return (
    <span className="field__note">
      An Amend cannot empty a field: left blank, it stays “<bdi>{loaded}</bdi>” in the VMS.
    </span>
  );
}

/** The field's loaded value when emptying it would show the note; undefined on other forms. */
export function useNotedValue(name: string): string | undefined {
  const loaded = useContext(LoadedValuesContext)?.[name];
  return loaded === undefined || loaded.trim() === '' ? undefined : loaded;
}

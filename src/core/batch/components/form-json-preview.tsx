import { useDeferredValue, useMemo } from 'react';
import type { FieldValues } from 'react-hook-form';
import { useWatch } from 'react-hook-form';
import { JsonBody, JsonDisclosure } from './json-preview';

interface Props<V> {
  toWire(values: V): unknown;
  fileName: string;
}

function LiveJson<V extends FieldValues>({ toWire, fileName }: Props<V>) {
  const values = useWatch() as V;
  const deferred = useDeferredValue(values);
  const wire = useMemo(() => toWire(deferred), [toWire, deferred]);
  return <JsonBody value={wire} label="JSON of this form" fileName={fileName} />;
}

/**
 * The JSON object the form's current values would be sent as (for QA: row numbers, the date
 * format, blanks), kept up to date while open. Only the open preview watches the values, so the
 * fields never re-render because of it.
 */
export function FormJsonPreview<V extends FieldValues>(props: Props<V>) {
  return (
    <JsonDisclosure summary="JSON of this form">{() => <LiveJson {...props} />}</JsonDisclosure>
  );
}

import { useId, useState } from 'react';
import type { ColumnSummary } from '@/core/import/model/import-view';
import type { FieldDef, MappingTemplate } from '@/domain';

const matchText: Record<string, string> = {
  'wire name': 'by its wire name',
  label: 'by its label',
  alias: 'by a name people use for it',
  mapping: 'chosen (by you or a template)',
};

/**
 * How the file's columns were read: each column with a few of its values,
 * the field it fills and how that was decided, changeable; saving the mapping as a template, and
 * applying one.
 */
export function ColumnMapping({
  columns,
  catalog,
  template,
  templates,
  suggestedName,
  disabled,
  onChange,
  onSave,
  onApply,
}: {
  columns: readonly ColumnSummary[];
  catalog: readonly FieldDef[];
  template: string | null;
  templates: readonly MappingTemplate[];
  suggestedName: string;
  disabled: boolean;
  onChange(column: number, key: string): void;
  onSave(name: string): void;
  onApply(template: MappingTemplate): void;
}) {
  const matched = columns.filter((column) => column.key !== null).length;
  const nameId = useId();
  const applyId = useId();
  const [name, setName] = useState(template ?? suggestedName);
  const [chosen, setChosen] = useState('');
  // The table (a select of every field per column: over a thousand options) is drawn only while
  // it is open, so a file that maps by itself costs nothing here.
  const [open, setOpen] = useState(matched < columns.length);
  return (
    <details
      className="import-mapping"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary>
        Columns: {matched} of {columns.length} matched
        {template ? ` · template “${template}”` : ''}
      </summary>
      {open ? (
        <table className="import-mapping__table">
          <caption className="visually-hidden">How each column of the file is read</caption>
          <thead>
            <tr>
              <th scope="col">Column in the file</th>
              <th scope="col">Values</th>
              <th scope="col">Fills the field</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {columns.map((column) => (
              <tr key={column.column}>
                <th scope="row">{column.header || `(column ${column.column + 1}, no name)`}</th>
                <td className="import-mapping__samples">{column.samples.join(' · ')}</td>
                <td>
                  <select
                    aria-label={`Field for column “${column.header}”`}
                    value={column.key ?? ''}
                    disabled={disabled}
                    onChange={(event) => onChange(column.column, event.target.value)}
                  >
                    <option value="">Ignore this column</option>
                    {catalog.map((def) => (
                      <option key={def.key} value={def.key}>
                        {def.label} ({def.key})
                      </option>
                    ))}
                  </select>
                </td>
                <td className="field__hint">
                  {column.key === null
                    ? (column.note ?? 'names no field')
                    : (matchText[column.match ?? ''] ?? '')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <form
        className="import-mapping__save"
        onSubmit={(event) => {
          event.preventDefault();
          if (name.trim() !== '') onSave(name.trim());
        }}
      >
        <label htmlFor={nameId}>Template name</label>
        <input id={nameId} value={name} onChange={(event) => setName(event.target.value)} />
        <button
          type="submit"
          className="button button--secondary"
          disabled={disabled || name.trim() === ''}
        >
          Save mapping as template
        </button>
      </form>
      {templates.length > 0 ? (
        <form
          className="import-mapping__save"
          onSubmit={(event) => {
            event.preventDefault();
            const picked = templates.find((entry) => entry.name === chosen);
            if (picked) onApply(picked);
          }}
        >
          <label htmlFor={applyId}>Saved templates</label>
          <select id={applyId} value={chosen} onChange={(event) => setChosen(event.target.value)}>
            <option value="">Choose a template…</option>
            {templates.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
              </option>
            ))}
          </select>
          <button
            type="submit"
            className="button button--secondary"
            disabled={disabled || chosen === ''}
          >
            Apply template
          </button>
        </form>
      ) : null}
    </details>
  );
}

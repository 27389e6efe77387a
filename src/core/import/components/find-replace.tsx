import { useId, useState } from 'react';

/** Find and replace in one column of the file being imported: every live row, in one step. */
export function FindReplace({
  columns,
  disabled,
  onReplace,
}: {
  columns: ReadonlyArray<{ column: number; name: string }>;
  disabled: boolean;
  onReplace(column: number, find: string, replace: string, name: string): void;
}) {
  const id = useId();
  const [column, setColumn] = useState(columns[0]?.column ?? 0);
  const [find, setFind] = useState('');
  const [replace, setReplace] = useState('');
  return (
    <form
      className="import-replace"
      aria-label="Find and replace in a column"
      onSubmit={(event) => {
        event.preventDefault();
        const chosen = columns.find((entry) => entry.column === column);
        if (chosen && find !== '') onReplace(chosen.column, find, replace, chosen.name);
      }}
    >
      <label htmlFor={`${id}-column`}>In column</label>
      <select
        id={`${id}-column`}
        value={column}
        onChange={(event) => setColumn(Number(event.target.value))}
      >
        {columns.map((entry) => (
          <option key={entry.column} value={entry.column}>
            {entry.name}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-find`}>find</label>
      <input id={`${id}-find`} value={find} onChange={(event) => setFind(event.target.value)} />
      <label htmlFor={`${id}-replace`}>replace with</label>
      <input
        id={`${id}-replace`}
        value={replace}
        onChange={(event) => setReplace(event.target.value)}
      />
      <button type="submit" className="button button--secondary" disabled={disabled || find === ''}>
        Replace all
      </button>
    </form>
  );
}

import type { DragEvent } from 'react';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { useImportSession } from '@/core/import/hooks/use-import-session';
import { SaveAsCases } from '@/core/suites/components/save-as-cases';
import { catalogOf } from '@/domain';
import { suiteCaseLimit } from '@/domain/suite-cases';
import { useOrg } from '@/shared/config/org-context';
import { countOf, groupDigits } from '@/shared/lib/format';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { ColumnMapping } from './column-mapping';
import { FindReplace } from './find-replace';
import { ImportGrid } from './import-grid';

const accept = '.csv,.tsv,.txt,.xlsx,.json,text/csv,text/tab-separated-values,application/json';
const count = groupDigits;

/** The page's heading (its prerendered shell shows it too). */
export const importHeading = (kind: Pick<BatchKind, 'noun'>) => `Import ${kind.noun.many}`;

/**
 * Requisitions → Import, Candidates → Import: a spreadsheet's rows mapped to fields,
 * checked cell by cell by the domain's rules in a worker, fixed in place, and added to the batch.
 */
export function ImportPage({ kind }: { kind: BatchKind }) {
  const { config, clientOrgId } = useOrg();
  const session = useImportSession(kind, clientOrgId, config);
  const { opened, summary, busy } = session;
  const fileId = useId();
  const pasteId = useId();
  const [pasted, setPasted] = useState('');
  const [dragging, setDragging] = useState(false);
  const [onlyErrors, setOnlyErrors] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  /** Another file chosen while this one still holds work: it waits for the user's answer. */
  const [replacing, setReplacing] = useState<{ input: File | string; name: string } | null>(null);
  const catalog = catalogOf(kind.id);
  const dateOrderId = useId();
  const dateFields = new Set(catalog.filter((def) => def.type === 'DATE').map((def) => def.key));
  const hasDates = summary?.columns.some((column) => column.key && dateFields.has(column.key));

  // Opening another file replaces this one: its rows not yet in the batch and the cells edited
  // in them would be gone, so the user is asked first.
  const open = (input: File | string, name: string) => {
    if (opened && summary && (summary.rows > 0 || summary.edited > 0)) {
      setReplacing({ input, name });
      return;
    }
    void session.open(input, name);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) open(file, file.name);
  };

  // The same list while the summary is the same: the grid's rows are drawn again only when it changes.
  const mappedColumns = useMemo(
    () => summary?.columns.filter((column) => column.key !== null) ?? [],
    [summary],
  );
  const addable = summary ? Math.min(summary.valid, session.room) : 0;

  return (
    <div className="page import-page" aria-busy={busy !== null}>
      <div className="page__header">
        <h1>{importHeading(kind)}</h1>
        <Link to={session.batchPath} className="button button--secondary">
          Open the batch
        </Link>
      </div>
      <p>
        Choose or drop a CSV, TSV, Excel (.xlsx) or JSON file of {kind.noun.many}, one per row under
        a row of column names, or paste cells copied from a spreadsheet. Columns are matched to
        fields by name; every cell is checked by the same rules as the form.
      </p>

      <div
        className={dragging ? 'import-drop import-drop--over' : 'import-drop'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label htmlFor={fileId}>Choose a file</label>
        <input
          id={fileId}
          type="file"
          accept={accept}
          disabled={busy !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) open(file, file.name);
          }}
        />
        <span className="field__hint">or drop it here</span>
      </div>
      <details className="import-paste">
        <summary>Paste cells instead</summary>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (pasted.trim() !== '') open(pasted, 'Pasted cells');
          }}
        >
          <label htmlFor={pasteId}>
            Cells copied from a spreadsheet, with the row of column names
          </label>
          <textarea
            id={pasteId}
            rows={5}
            value={pasted}
            onChange={(event) => setPasted(event.target.value)}
          />
          <button
            type="submit"
            className="button button--secondary"
            disabled={busy !== null || pasted.trim() === ''}
          >
            Check pasted cells
          </button>
        </form>
      </details>

      <ConfirmDialog
        open={replacing !== null}
        title={`Replace ${opened?.fileName ?? 'this import'}?`}
        confirmLabel={`Open ${replacing?.name ?? 'the other file'}`}
        cancelLabel={`Keep ${opened?.fileName ?? 'this import'}`}
        destructive
        onConfirm={() => {
          const next = replacing;
          setReplacing(null);
          if (next) void session.open(next.input, next.name);
        }}
        onCancel={() => setReplacing(null)}
      >
        <p>
          {opened?.fileName} still has {countOf(summary?.rows ?? 0, 'row', 'rows')} not added to the
          batch
          {summary && summary.edited > 0
            ? `, with ${countOf(summary.edited, 'cell', 'cells')} you changed`
            : ''}
          . Opening {replacing?.name} replaces {summary && summary.rows === 1 ? 'it' : 'them'}: they
          are not kept anywhere else.
        </p>
      </ConfirmDialog>

      <div aria-live="polite" className="import-page__messages">
        {busy ? <p className="notice notice--info">{busy}</p> : null}
        {session.problem ? (
          <p className="notice notice--error" role="alert">
            {session.problem}
          </p>
        ) : null}
        {session.done ? (
          <p className="notice notice--success">
            {session.done}{' '}
            {session.done.includes('added to the batch') ? (
              <Link to={session.batchPath}>Open the batch to send them</Link>
            ) : null}
          </p>
        ) : null}
        {!session.stored ? (
          <p className="notice notice--warning">
            The browser would not store this import, so a reload loses what you change here.
          </p>
        ) : null}
      </div>

      {opened && summary ? (
        <section aria-labelledby={`${fileId}-file`} className="import-file">
          <h2 id={`${fileId}-file`}>{opened.fileName}</h2>
          <p className="field__hint">
            Read as {opened.format}
            {opened.template ? ` · columns mapped by the template “${opened.template}”` : ''}
          </p>
          {opened.sheetNames.length > 1 ? (
            <label className="import-sheet">
              Sheet{' '}
              <select
                value={opened.sheet}
                disabled={busy !== null}
                onChange={(event) => void session.chooseSheet(event.target.value)}
              >
                {opened.sheetNames.map((name) => (
                  <option key={name}>{name}</option>
                ))}
              </select>
            </label>
          ) : null}
          <p role="status" className="import-summary">
            {count(summary.rows)} {summary.rows === 1 ? 'row' : 'rows'} · {count(summary.valid)}{' '}
            ready · {count(summary.withErrors)} with errors
          </p>
          {summary.missing.length > 0 ? (
            <div className="notice notice--warning">
              <p>
                No column fills{' '}
                {summary.missing.map((field, index) => (
                  <span key={field.field}>
                    {index > 0 ? ', ' : ''}
                    <strong>{field.label}</strong> ({count(field.errors)}{' '}
                    {field.errors === 1 ? 'row' : 'rows'})
                  </span>
                ))}
                . Choose the column that holds it under “Columns”, or add one to the file.
              </p>
            </div>
          ) : null}

          <ColumnMapping
            key={`${opened.fileName}:${opened.openedAt}`}
            columns={summary.columns}
            catalog={catalog}
            template={opened.template}
            templates={session.templates}
            suggestedName={opened.fileName.replace(/\.[^.]*$/, '')}
            disabled={busy !== null}
            onChange={(column, key) => void session.setColumn(column, key)}
            onSave={(name) => void session.saveTemplate(name)}
            onApply={(template) => void session.applyTemplate(template)}
          />
          {hasDates ? (
            <div className="field import-date-order">
              <label htmlFor={dateOrderId} className="field__label">
                Dates in this file
              </label>
              <select
                id={dateOrderId}
                value={summary.dateOrder ?? ''}
                disabled={busy !== null}
                onChange={(event) => {
                  const value = event.target.value;
                  void session.setDateOrder(
                    value === 'month-first' || value === 'day-first' ? value : null,
                  );
                }}
              >
                <option value="">As the file shows (a 5/14/2027 proves month first)</option>
                <option value="month-first">Month first: 3/4/2027 is 4 March</option>
                <option value="day-first">Day first: 3/4/2027 is 3 April</option>
              </select>
              <p className="field__hint">Kept in a template saved from this file.</p>
            </div>
          ) : null}

          <div className="button-row import-actions">
            {selected.size > 0 ? (
              <>
                <button
                  type="button"
                  className="button"
                  disabled={busy !== null || session.room === 0}
                  onClick={() =>
                    void session
                      .addValid([...selected].sort((a, b) => a - b))
                      .then(() => setSelected(new Set()))
                  }
                >
                  Add the {count(selected.size)} selected {selected.size === 1 ? 'row' : 'rows'} to
                  the batch
                </button>
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => setSelected(new Set())}
                >
                  Clear the selection
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button"
                disabled={busy !== null || addable === 0}
                onClick={() => void session.addValid()}
              >
                {addable === summary.valid
                  ? `Add ${count(addable)} valid ${addable === 1 ? 'row' : 'rows'} to the batch`
                  : `Add ${count(addable)} of ${count(summary.valid)} valid rows to the batch`}
              </button>
            )}
            <SaveAsCases
              kind={kind}
              label={
                selected.size > 0
                  ? `Save the ${count(selected.size)} selected as cases…`
                  : 'Save valid rows as cases…'
              }
              disabled={busy !== null || summary.valid === 0}
              items={async () => {
                const rows = await session.validRows(
                  suiteCaseLimit,
                  selected.size > 0 ? [...selected].sort((a, b) => a - b) : undefined,
                );
                if (rows.length === 0) {
                  throw new Error('None of these rows is valid yet: fix their errors first.');
                }
                return rows.map((row) => ({
                  item: row.wire,
                  expect: null,
                  origin: `row ${row.rowNumber} of ${opened.fileName}`,
                }));
              }}
            />
            <button
              type="button"
              className="button button--secondary"
              disabled={busy !== null || summary.withErrors === 0}
              onClick={() => void session.exportErrors()}
            >
              Export {count(summary.withErrors)} {summary.withErrors === 1 ? 'row' : 'rows'} with
              errors (CSV)
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={busy !== null}
              onClick={() => void session.discard()}
            >
              Discard this import
            </button>
          </div>
          {summary.valid > session.room ? (
            <p className="field__hint">
              The VMS takes at most {count(config.maxBatch)} {kind.noun.many} per batch
              {session.room < config.maxBatch
                ? ` and the batch already holds ${count(config.maxBatch - session.room)}`
                : ''}
              : send it, then add the next rows.
            </p>
          ) : null}

          <div className="import-toolbar">
            <label className="checkbox">
              <input
                type="checkbox"
                checked={onlyErrors}
                onChange={(event) => setOnlyErrors(event.target.checked)}
              />{' '}
              Only rows with errors ({count(summary.withErrors)})
            </label>
            <FindReplace
              columns={mappedColumns.map((column) => ({
                column: column.column,
                name: column.label ?? column.header,
              }))}
              disabled={busy !== null}
              onReplace={(column, find, replace, name) =>
                void session.replaceInColumn(column, find, replace, name)
              }
            />
          </div>

          <ImportGrid
            fileName={opened.fileName}
            columns={mappedColumns}
            otherProblems={summary.missing.length > 0}
            total={onlyErrors ? summary.withErrors : summary.rows}
            onlyErrors={onlyErrors}
            version={session.version}
            selected={selected}
            onSelect={(index, chosen) =>
              setSelected((current) => {
                const next = new Set(current);
                if (chosen) next.add(index);
                else next.delete(index);
                return next;
              })
            }
            onEdit={session.editCell}
          />
        </section>
      ) : null}
    </div>
  );
}

import type { ReactNode } from 'react';
import { useMemo, useState } from 'react';
import { countOf } from '@/shared/lib/format';
import { Disclosure } from '@/shared/ui/disclosure';
import { copyText, downloadText } from '@/shared/ui/json-actions';

export interface JsonBodyProps {
  /** The value exactly as it will be sent. */
  value: unknown;
  label: string;
  fileName: string;
}

/** Above this many characters the page shows the start of the JSON; copy and download give all. */
export const shownJsonChars = 100_000;

/** The start of a long text, cut at a line end, and how many lines were left out. */
export function jsonExcerpt(text: string): { shown: string; hiddenLines: number } {
  if (text.length <= shownJsonChars) return { shown: text, hiddenLines: 0 };
  const cut = text.lastIndexOf('\n', shownJsonChars);
  const shown = text.slice(0, cut > 0 ? cut : shownJsonChars);
  let hiddenLines = 1;
  for (let at = text.indexOf('\n', shown.length + 1); at !== -1; at = text.indexOf('\n', at + 1))
    hiddenLines += 1;
  return { shown, hiddenLines };
}

/**
 * Pretty-printed JSON with copy and download (for QA, and for sending by other means). A very
 * long JSON (a 500-item batch is 2 million characters) is shown in part, so the page stays quick;
 * Copy and Download always give the whole of it.
 */
export function JsonBody({ value, label, fileName }: JsonBodyProps) {
  const [copyNote, setCopyNote] = useState('');
  const text = useMemo(() => JSON.stringify(value, null, 2), [value]);
  const { shown, hiddenLines } = useMemo(() => jsonExcerpt(text), [text]);
  return (
    <>
      <div className="button-row button-row--compact">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => {
            void copyText(text).then((ok) =>
              setCopyNote(
                ok
                  ? 'JSON copied to the clipboard.'
                  : 'The browser did not allow copying; select the JSON below and press Ctrl+C (⌘C on a Mac).',
              ),
            );
          }}
        >
          Copy JSON
        </button>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => downloadText(`${text}\n`, fileName)}
        >
          Download JSON
        </button>
        <span role="status" className="json-preview__note">
          {copyNote}
        </span>
      </div>
      {/* Focusable so keyboard users can scroll it. */}
      <div className="json-preview__code" role="region" aria-label={label} tabIndex={0}>
        <pre>
          <code>{shown}</code>
        </pre>
      </div>
      {hiddenLines > 0 ? (
        <p className="field__hint">
          {countOf(hiddenLines, 'more line is', 'more lines are')} not shown here. Use “Copy JSON”
          or “Download JSON” for the whole of it.
        </p>
      ) : null}
    </>
  );
}

/** A disclosure of a JSON preview, made only while it is shown (see `Disclosure`). */
export function JsonDisclosure({
  summary,
  children,
}: {
  summary: string;
  children: () => ReactNode;
}) {
  return (
    <div className="json-preview">
      <Disclosure className="link-button json-preview__toggle" label={() => summary}>
        {children}
      </Disclosure>
    </div>
  );
}

export interface JsonPreviewProps extends JsonBodyProps {
  /** The disclosure's text, e.g. "JSON to be sent (3 requisitions)". */
  summary: string;
}

/** A disclosure whose JSON is made only while it is open (never kept in the page while closed). */
export function JsonPreview({ summary, ...body }: JsonPreviewProps) {
  return <JsonDisclosure summary={summary}>{() => <JsonBody {...body} />}</JsonDisclosure>;
}

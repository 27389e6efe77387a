import { useState } from 'react';
import { copyText, downloadText } from '../../../shared/ui/json-actions';

export interface JsonBodyProps {
  /** The value exactly as it will be sent. */
  value: unknown;
  label: string;
  fileName: string;
}

/** Pretty-printed JSON with copy and download (for QA, and for sending by other means). */
export function JsonBody({ value, label, fileName }: JsonBodyProps) {
  const [copyNote, setCopyNote] = useState('');
  const text = JSON.stringify(value, null, 2);
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
          <code>{text}</code>
        </pre>
      </div>
    </>
  );
}

export interface JsonPreviewProps extends JsonBodyProps {
  /** The disclosure's text, e.g. "JSON to be sent (3 requisitions)". */
  summary: string;
}

export function JsonPreview({ summary, ...body }: JsonPreviewProps) {
  return (
    <details className="json-preview">
      <summary>{summary}</summary>
      <JsonBody {...body} />
    </details>
  );
}

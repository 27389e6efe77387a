import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import {
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  syntaxHighlighting,
} from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useId, useRef, useState } from 'react';
import type { WireItem } from '@/core/batch/model/batch-kind';
import type { RawElement } from '@/core/batch/model/raw-json';
import { readRawJson } from '@/core/batch/model/raw-json';
import type { FieldIssue } from '@/domain';
import { ErrorNotice } from '@/shared/ui/error-notice';

/** The page's colours (its custom properties reach into the shadow root) and a bounded height. */
const editorTheme = EditorView.theme({
  '&': {
    maxHeight: '28rem',
    border: '1px solid var(--border)',
    background: 'var(--surface)',
    color: 'var(--text)',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)' },
  '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, monospace' },
  '.cm-gutters': {
    background: 'var(--page)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border-light)',
  },
  '.cm-panels': { background: 'var(--surface)', color: 'var(--text)' },
});

/**
 * The batch's JSON, editable: CodeMirror 6 with the JSON language, folding,
 * search (Ctrl+F) and lint markers from the domain's rules at the key they concern. Apply puts
 * the edited items back in the tray (and so in their forms); text that is not a JSON array is
 * not applied. Loaded only when opened.
 */
export default function JsonEditor({
  initial,
  label,
  validate,
  onApply,
  onCancel,
}: {
  initial: string;
  label: string;
  validate(item: WireItem): FieldIssue[];
  onApply(elements: RawElement[]): void;
  onCancel(): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const hintId = useId();

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // The editor lives in a shadow root: CodeMirror then styles it with a constructed style sheet,
    // which the portal's CSP (style-src 'self', no inline <style>) allows; in the document it
    // would add a <style> element, which the CSP blocks.
    const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    shadow.replaceChildren(parent);
    const editor = new EditorView({
      root: shadow,
      parent,
      state: EditorState.create({
        doc: initial,
        extensions: [
          lineNumbers(),
          foldGutter(),
          lintGutter(),
          history(),
          bracketMatching(),
          highlightSelectionMatches(),
          search({ top: true }),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          json(),
          editorTheme,
          linter(
            (current) =>
              readRawJson(current.state.doc.toString(), validate).problems.map((found) => ({
                from: found.from,
                to: found.to,
                severity: 'error' as const,
                message: found.message,
              })),
            { delay: 300 },
          ),
          keymap.of([
            ...defaultKeymap,
            ...historyKeymap,
            ...foldKeymap,
            ...searchKeymap,
            ...lintKeymap,
          ]),
          EditorView.contentAttributes.of({
            'aria-label': label,
            'aria-describedby': hintId,
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; later props do not replace what the user typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const apply = () => {
    const text = view.current?.state.doc.toString() ?? '';
    const read = readRawJson(text, validate);
    if (!read.elements) {
      setProblem(
        `Nothing was applied: ${read.problems[0]?.message ?? 'the text is not a JSON array.'} The batch is as it was.`,
      );
      return;
    }
    onApply(read.elements);
  };

  return (
    <div className="json-editor">
      <p id={hintId} className="field__hint">
        Edit the array as it will be sent. Problems are marked where they are (point at one, or move
        to it with F8, to read it); Ctrl+F searches. Items that are not objects of text values are
        kept as written and can go only in a send without local checks. Press Escape, then Tab, to
        leave the editor.
      </p>
      <div ref={host} className="json-editor__host" />
      <ErrorNotice message={problem} />
      <div className="button-row">
        <button type="button" className="button" onClick={apply}>
          Apply to the batch
        </button>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/**
 * The moment the app takes over the page the server sent (decision 040): it draws its own page
 * in place of the prerendered one, whose elements React then removes. Two things keep what a
 * person was doing in that moment:
 *
 * - **Not in the middle of a press.** A click is a press and a release; the browser sends it to
 *   the element both happened on. An element replaced between the two gets no click (a link
 *   pressed as the app took over went nowhere). So while a pointer is pressed the app keeps the
 *   page it hydrated (its links and buttons work: they are React's by then), and takes over once
 *   the press has ended and its click has been handled.
 * - **What was typed, and where the focus was, carried over.** The fields of the prerendered page
 *   take typing before the app has run. As it takes over, the values changed in them and the
 *   focused field or link are noted (`noteShellState`, just before React removes them) and put in
 *   the app's own page in the same commit (`restoreShellState`), before any other key can land:
 *   each field by what names it to a person or to the form (its name, else its label), with the
 *   caret where it was.
 */

const presses = new Set<() => void>();
/** Whether the app may draw its own page: false while a press that began before it is held. */
let free: boolean | null = null;
/**
 * A press held for longer than this no longer holds the page (a release the page never heard of).
 * Long: a person's press lasts a fraction of a second, but a busy machine may take seconds to
 * hydrate, and a press ended by the timer rather than its release is a click lost.
 */
const longestPressMs = 10_000;

function release() {
  if (free) return;
  free = true;
  for (const listener of presses) listener();
}

function holdWhilePressed() {
  // The release, a press taken over by the browser (a scroll, a drag), or a key let go (Space
  // held on a checkbox makes it `:active` too).
  const endings = ['pointerup', 'pointercancel', 'dragend', 'keyup'] as const;
  const ended = () => {
    for (const ending of endings) window.removeEventListener(ending, ended, true);
    // After the click that follows the release (dispatched in the same task).
    setTimeout(release, 0);
  };
  for (const ending of endings) window.addEventListener(ending, ended, true);
  setTimeout(ended, longestPressMs);
}

/**
 * False until the app may take over: asked once the page has hydrated. A press that began before
 * (even before the app's code ran) shows in the page as an element that is `:active`.
 */
export function mayTakeOver(): boolean {
  if (free === null) {
    free = document.querySelector(':active') === null;
    if (!free) holdWhilePressed();
  }
  return free;
}

export function onMayTakeOver(listener: () => void): () => void {
  presses.add(listener);
  return () => presses.delete(listener);
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

interface NotedField {
  key: string;
  value: string | null;
  checked: boolean | null;
}

interface ShellState {
  fields: NotedField[];
  focus: { key: string; start: number | null; end: number | null } | null;
}

let noted: ShellState | null = null;

const isField = (element: Element | null): element is Field =>
  element instanceof HTMLInputElement ||
  element instanceof HTMLSelectElement ||
  element instanceof HTMLTextAreaElement;

/** What names a field or link the same in the prerendered page and in the app's page. */
function keyOf(element: Element): string | null {
  if (element instanceof HTMLAnchorElement) {
    const href = element.getAttribute('href');
    return href === null ? null : `link ${href} ${element.textContent ?? ''}`;
  }
  if (!isField(element)) return null;
  const type = element instanceof HTMLInputElement ? element.type : element.localName;
  if (element.name) return `${type} name ${element.name}`;
  // An id made by React's useId depends on where the field is in the tree: its label instead.
  const label = element.labels?.[0]?.textContent;
  return label ? `${type} label ${label}` : null;
}

function changed(field: Field): boolean {
  if (field instanceof HTMLSelectElement) {
    // With no option marked selected in the page, the first one is.
    const options = [...field.options];
    const first = options.find((option) => option.defaultSelected) ?? options[0];
    return field.multiple
      ? options.some((option) => option.selected !== option.defaultSelected)
      : field.value !== (first?.value ?? '');
  }
  if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
    return field.checked !== field.defaultChecked;
  }
  return field.value !== field.defaultValue;
}

function selectionOf(element: Element): { start: number | null; end: number | null } {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    try {
      return { start: element.selectionStart, end: element.selectionEnd };
    } catch {
      // A type without a caret (e.g. a number field in some browsers).
    }
  }
  return { start: null, end: null };
}

/**
 * The field or link a person last put the focus on, until they take it away (a `focusout`). The
 * focus can also leave an element with no event at all: in Chromium, on a busy machine, a field of
 * the prerendered page was found unfocused as the app took over, with no `focusout` after the
 * person focused it. The next key would then land nowhere; the app's page puts the focus back
 * where the person left it.
 */
let lastFocused: Element | null = null;
if (typeof document !== 'undefined') {
  const focused = document.activeElement;
  if (focused && focused !== document.body) lastFocused = focused;
  document.addEventListener('focusin', (event) => (lastFocused = event.target as Element), true);
  document.addEventListener(
    'focusout',
    (event) => {
      if (event.target === lastFocused) lastFocused = null;
    },
    true,
  );
}

/** Where the person's focus is in `root`: the focused element, or the one it left unannounced. */
function focusIn(root: Element): Element | null {
  const active = document.activeElement;
  if (active && active !== document.body) return root.contains(active) ? active : null;
  return lastFocused && root.contains(lastFocused) ? lastFocused : null;
}

/** Notes the changed fields and the focus inside `root`, the prerendered page about to go. */
export function noteShellState(root: Element) {
  const fields: NotedField[] = [];
  const active = focusIn(root);
  for (const field of root.querySelectorAll('input, select, textarea')) {
    // The field being typed into is carried as the person sees it even when unchanged: the app's
    // may hold another value (a draft it restores), and the next key lands at the caret noted
    // here, in the middle of a value the person never saw.
    if (!isField(field) || (!changed(field) && field !== active)) continue;
    const key = keyOf(field);
    if (!key) continue;
    const toggles =
      field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
    fields.push({
      key,
      value: toggles ? null : field.value,
      checked: toggles ? field.checked : null,
    });
  }
  const key = active ? keyOf(active) : null;
  const focus = key && active ? { key, ...selectionOf(active) } : null;
  noted = fields.length > 0 || focus ? { fields, focus } : null;
  // Put in the page that replaces it in the same commit, or not at all: a page drawn later (the
  // sign-in form first) is not given what was typed into another.
  if (noted) setTimeout(() => (noted = null), 0);
}

/** React tracks a field's value to tell a change; the prototype's setter goes around it. */
function setValue(field: Field, value: string) {
  const prototype = Object.getPrototypeOf(field) as object;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
  field.dispatchEvent(new Event('change', { bubbles: true }));
}

function find(root: Element, key: string): Element | null {
  return (
    [...root.querySelectorAll('a[href], input, select, textarea')].find(
      (element) => keyOf(element) === key,
    ) ?? null
  );
}

/** The fields given a value by restoreShellState, and the boxes to tick, for announceRestored. */
let restored: { fields: Field[]; toggles: HTMLInputElement[] } = { fields: [], toggles: [] };

/**
 * Puts what `noteShellState` noted into `root`, the page that took the prerendered one's place:
 * in a layout effect, before another key can land, so each value is in its field and the focus
 * and caret where they were.
 */
export function restoreShellState(root: Element) {
  const state = noted;
  noted = null;
  restored = { fields: [], toggles: [] };
  if (!state) return;
  for (const { key, value, checked } of state.fields) {
    const field = find(root, key);
    if (!isField(field)) continue;
    if (checked !== null && field instanceof HTMLInputElement) {
      if (field.checked !== checked) restored.toggles.push(field);
    } else if (value !== null && field.value !== value) {
      setValue(field, value);
      restored.fields.push(field);
    }
  }
  if (!state.focus) return;
  const target = find(root, state.focus.key);
  if (!(target instanceof HTMLElement)) return;
  target.focus({ preventScroll: true });
  const { start, end } = state.focus;
  if (start !== null && end !== null && isField(target) && !(target instanceof HTMLSelectElement)) {
    try {
      target.setSelectionRange(start, end);
    } catch {
      // A type without a caret.
    }
  }
}

/**
 * Tells the app's page of the values restoreShellState put in it, once its effects have run:
 * what subscribes to a form's changes in an effect (its draft's saving, a field watched by
 * another) missed the events sent in the layout effect. React tells a field's change by the
 * value it last saw; set through the element (which React watches) to another value and back
 * through the prototype, the field's current value (with any key typed since) is a change again.
 * A box to tick is clicked here: no key goes into one.
 */
export function announceRestored() {
  const { fields, toggles } = restored;
  restored = { fields: [], toggles: [] };
  for (const field of fields) {
    if (!field.isConnected) continue;
    if (field instanceof HTMLSelectElement) {
      field.dispatchEvent(new Event('change', { bubbles: true }));
      continue;
    }
    const { value } = field;
    const caret = document.activeElement === field ? selectionOf(field) : null;
    field.value = `${value} `;
    setValue(field, value);
    if (caret?.start != null && caret.end != null) field.setSelectionRange(caret.start, caret.end);
  }
  for (const toggle of toggles) if (toggle.isConnected) toggle.click();
}

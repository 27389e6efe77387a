import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/json';
import type { FieldIssue } from '@/domain';
import type { WireItem } from './batch-kind';

/**
 * The batch as raw JSON: the text a QA engineer edits, read back into items,
 * with each problem placed where it is in the text (a key the domain's rules reject, a value
 * that is not text, a syntax error), for the editor's lint markers. Pure: no editor, no DOM.
 */
export interface RawProblem {
  from: number;
  to: number;
  message: string;
}

/** One element of the edited array: a wire item when it is an object of text values. */
export type RawElement =
  | { kind: 'wire'; wire: WireItem }
  /** Anything else (numbers, nested values, not an object): sent exactly as written. */
  | { kind: 'raw'; value: unknown; wire: WireItem };

export interface RawRead {
  /** The elements, or null when the text is not a JSON array. */
  elements: RawElement[] | null;
  problems: RawProblem[];
}

/** An element as the tray shows and summarizes it: text values as they are, others as JSON. */
export function wireOf(value: unknown): WireItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, cell]) => [
      key,
      typeof cell === 'string' ? cell : JSON.stringify(cell),
    ]),
  );
}

const isWire = (value: unknown): value is WireItem =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.values(value as Record<string, unknown>).every((cell) => typeof cell === 'string');

/** A JSON value as a tray item: a wire item when it is an object of text values, else raw. */
export function trayElementOf(value: unknown): { wire: WireItem; raw?: unknown } {
  return isWire(value) ? { wire: value } : { wire: wireOf(value), raw: value };
}

/** The value nodes of an array node, in order. */
function elementsOf(array: SyntaxNode): SyntaxNode[] {
  const nodes: SyntaxNode[] = [];
  for (let child = array.firstChild; child; child = child.nextSibling) {
    if (child.name !== '[' && child.name !== ']' && child.name !== ',' && !child.type.isError)
      nodes.push(child);
  }
  return nodes;
}

/** The properties of an object node by key (the key's JSON string decoded). */
function propertiesOf(
  text: string,
  object: SyntaxNode,
): Map<string, { key: SyntaxNode; value: SyntaxNode | null }> {
  const properties = new Map<string, { key: SyntaxNode; value: SyntaxNode | null }>();
  for (let property = object.firstChild; property; property = property.nextSibling) {
    if (property.name !== 'Property') continue;
    const key = property.getChild('PropertyName');
    if (!key) continue;
    let name: string;
    try {
      name = JSON.parse(text.slice(key.from, key.to)) as string;
    } catch {
      continue;
    }
    const value = key.nextSibling?.nextSibling ?? null;
    properties.set(name, { key, value });
  }
  return properties;
}

const kindOf = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/**
 * Reads the edited text: the elements, and every problem at its place. `validate` is the kind's
 * own (the tray's) for an element that is an object of text values.
 */
export function readRawJson(text: string, validate: (item: WireItem) => FieldIssue[]): RawRead {
  const tree = parser.parse(text);
  const problems: RawProblem[] = [];
  let syntaxError = false;
  tree.iterate({
    enter(node) {
      if (!node.type.isError) return;
      syntaxError = true;
      problems.push({
        from: node.from,
        to: Math.max(node.to, Math.min(node.from + 1, text.length)),
        message: 'This is not valid JSON here: check for a missing comma, quote or bracket.',
      });
    },
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (!syntaxError)
      problems.push({
        from: 0,
        to: Math.min(1, text.length),
        message: `This is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      });
    return { elements: null, problems };
  }
  const top = tree.topNode.firstChild;
  if (!Array.isArray(value) || !top || top.name !== 'Array') {
    problems.push({
      from: top?.from ?? 0,
      to: top?.to ?? text.length,
      message: 'A batch is a JSON array of items: [ { … }, { … } ].',
    });
    return { elements: null, problems };
  }
  const nodes = elementsOf(top);
  const elements = (value as unknown[]).map((element, index): RawElement => {
    const node = nodes[index];
    const at = (from: number, to: number, message: string) =>
      problems.push({ from, to, message: `Item ${index + 1}: ${message}` });
    if (!isWire(element)) {
      if (node && (element === null || typeof element !== 'object' || Array.isArray(element))) {
        at(
          node.from,
          node.to,
          `this is ${kindOf(element)}, not an object of fields. It is sent as written only without local checks.`,
        );
      } else if (node) {
        for (const [key, { key: keyNode, value: valueNode }] of propertiesOf(text, node)) {
          const cell = (element as Record<string, unknown>)[key];
          if (typeof cell !== 'string')
            at(
              valueNode?.from ?? keyNode.from,
              valueNode?.to ?? keyNode.to,
              `${key} is ${kindOf(cell)}; the VMS's fields are text (write "${typeof cell === 'object' ? '…' : String(cell)}"). It is sent as written only without local checks.`,
            );
        }
      }
      return { kind: 'raw', value: element, wire: wireOf(element) };
    }
    if (node) {
      const properties = propertiesOf(text, node);
      for (const issue of validate(element)) {
        const property = properties.get(issue.field);
        if (property) at(property.key.from, property.key.to, issue.message);
        else at(node.from, Math.min(node.from + 1, node.to), issue.message);
      }
    }
    return { kind: 'wire', wire: element };
  });
  return { elements, problems };
}

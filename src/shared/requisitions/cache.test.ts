import { describe, expect, it } from 'vitest';
import type { RequisitionRecord } from '@/domain';
import { mergeIntoChunks } from './cache';

const record = (reqId: string, title: string) =>
  ({
    reqId,
    createdAt: '',
    updatedAt: '',
    fields: { titlerole: title },
  }) as unknown as RequisitionRecord;
const titles = (chunks: RequisitionRecord[][]) =>
  chunks.map((chunk) =>
    chunk.map((r) => `${r.reqId}:${(r.fields as { titlerole: string }).titlerole}`),
  );

describe('merging changed records into a stored copy', () => {
  it('replaces a record in its own chunk and marks only that chunk', () => {
    const chunks = [
      [record('1', 'a'), record('2', 'b')],
      [record('3', 'c'), record('4', 'd')],
    ];
    expect([...mergeIntoChunks(chunks, [record('3', 'c renamed')], 2)]).toEqual([1]);
    expect(titles(chunks)).toEqual([
      ['1:a', '2:b'],
      ['3:c renamed', '4:d'],
    ]);
  });

  it('fills the last chunk with new records, then starts new chunks of the given size', () => {
    const chunks = [[record('1', 'a'), record('2', 'b')], [record('3', 'c')]];
    const changed = mergeIntoChunks(
      chunks,
      [record('5', 'e'), record('6', 'f'), record('7', 'g'), record('1', 'a2')],
      2,
    );
    expect([...changed].sort()).toEqual([0, 1, 2]);
    expect(titles(chunks)).toEqual([
      ['1:a2', '2:b'],
      ['3:c', '5:e'],
      ['6:f', '7:g'],
    ]);
  });

  it('starts the first chunk of an empty copy, and a record changed twice keeps its last version', () => {
    const chunks: RequisitionRecord[][] = [];
    mergeIntoChunks(chunks, [record('9', 'first'), record('9', 'second')], 2);
    expect(titles(chunks)).toEqual([['9:second']]);
  });
});

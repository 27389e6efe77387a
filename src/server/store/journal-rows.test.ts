import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BodyPacker } from '@/server/journal/store/journal-rows';

const batch = (n: number) =>
  Buffer.from(
    JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({ titlerole: `Welder ${n}-${i}`, city: 'Zürich' })),
    ),
  );
const inflate = (data: Buffer) => inflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });

describe('BodyPacker', () => {
  it('packs bodies on its streams, each of which inflates alone to its bytes', async () => {
    const packer = new BodyPacker();
    const bodies = [batch(1), batch(2), batch(3)];
    const packed = await Promise.all(bodies.map((body) => packer.pack(body)));
    // Read in another order than packed: none needs another's bytes before it.
    for (const index of [2, 0, 1]) {
      const result = packed[index];
      expect(result?.compressed).toBe(1);
      expect(result && result.data.length < (bodies[index]?.length ?? 0) / 5).toBe(true);
      expect(result && inflate(result.data).equals(bodies[index] ?? Buffer.alloc(0))).toBe(true);
    }
    packer.close();
  });

  it('packs many bodies at once on its streams side by side, large ones too, each to its own bytes', async () => {
    const packer = new BodyPacker();
    // Hex shrinks to about half: a 300 KB body deflates to several of the stream's 16 KB chunks.
    const large = Buffer.from(JSON.stringify([{ notes: randomBytes(150_000).toString('hex') }]));
    const bodies = [...Array.from({ length: 23 }, (_, n) => batch(100 + n)), large, batch(200)];
    const packed = await packer.packAll(bodies, () => true);
    expect(packed.size).toBe(bodies.length);
    for (const body of bodies) {
      const result = packed.get(body);
      expect(result?.compressed).toBe(1);
      expect(result && inflate(result.data).equals(body)).toBe(true);
    }
    expect((packed.get(large)?.data.length ?? 0) > 64 * 1024).toBe(true);
    packer.close();
  });

  it('keeps what deflate cannot shrink, and small bodies, as they are', async () => {
    const packer = new BodyPacker();
    const noise = randomBytes(4096);
    expect(await packer.pack(noise)).toEqual({ data: noise, compressed: 0 });
    const small = Buffer.from('{"batchid":"rb_1","received":1}');
    expect(await packer.pack(small)).toEqual({ data: small, compressed: 0 });
    packer.close();
  });

  it('packs only the bodies asked for, each once', async () => {
    const packer = new BodyPacker();
    const stored = batch(4);
    const fresh = batch(5);
    const asked: Buffer[] = [];
    const packed = await packer.packAll([stored, fresh, fresh], (body) => {
      asked.push(body);
      return body !== stored;
    });
    expect([...packed.keys()]).toEqual([fresh]);
    expect(asked).toEqual([stored, fresh]);
    packer.close();
  });

  it('reads bodies stored before it, deflated whole, the same way', () => {
    const body = batch(6);
    expect(inflate(deflateRawSync(body, { level: 1 })).equals(body)).toBe(true);
  });
});

// What the payload codec costs: encode + decode of typical payloads (a small activity argument,
// a chat prompt, a large tool result) through the JSON converter alone (baseline, measured in the
// same run) and through the converter plus the encrypting codec. Prints a table.
//   npx tsx bench/payloads/codec.bench.ts
import { randomBytes } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import { EncryptionCodec } from '../../src/payloads/codec.js';
import { OrganizationPayloadConverter } from '../../src/payloads/converter.js';
import { createPayloadKeyRing } from '../../src/payloads/keys.js';

const codec = new EncryptionCodec({ keys: createPayloadKeyRing(randomBytes(32)) });
const converter = new OrganizationPayloadConverter(() => 'f3f6c1de-0000-4000-8000-000000000001');
const words = 'the quarterly report shows revenue up in every region while costs held flat '.split(' ');
const text = (bytes: number) => {
  let out = '';
  while (out.length < bytes) out += `${words[out.length % words.length]} `;
  return out.slice(0, bytes);
};
const cases = [
  { name: 'activity argument (200 B)', value: { runId: 'r', organizationId: 'o', trigger: 'schedule', note: text(120) } },
  { name: 'chat prompt (4 KiB)', value: { messages: [{ role: 'user', content: text(4096) }] } },
  { name: 'tool result (256 KiB)', value: { content: text(256 * 1024) } },
];

async function timePerOp(run: () => Promise<unknown>, minMs = 400): Promise<number> {
  for (let i = 0; i < 50; i += 1) await run();
  let count = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs) {
    await run();
    count += 1;
    elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return (elapsed * 1000) / count;
}

const rows: string[] = [];
for (const { name, value } of cases) {
  const baseline = await timePerOp(async () => defaultPayloadConverter.fromPayload(defaultPayloadConverter.toPayload(value)));
  const encrypted = await timePerOp(async () => converter.fromPayload((await codec.decode(await codec.encode([converter.toPayload(value)])))[0]!));
  const plainSize = defaultPayloadConverter.toPayload(value).data!.length;
  const storedSize = (await codec.encode([converter.toPayload(value)]))[0]!.data!.length;
  rows.push(`| ${name} | ${baseline.toFixed(1)} | ${encrypted.toFixed(1)} | ${(encrypted / baseline).toFixed(1)}x | ${plainSize} | ${storedSize} |`);
}
process.stdout.write(
  ['| payload | JSON only (µs/op) | JSON + codec (µs/op) | ratio | JSON bytes | stored bytes |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n') + '\n',
);

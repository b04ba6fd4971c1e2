// Probe: the CPU and latency of ResponsesStore.save alone (encryption, JSON, the insert), in this
// process against a scratch PostgreSQL database: sequential, 64 at once, and 64 clients that each
// wait 10-20 ms (an upstream's answer) between saves, as saves arrive in the gateway under load.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/db/orm.js';
import { entities } from '../../src/orm-entities.js';
import { createSecretBox } from '../../src/crypto/secrets.js';
import { ResponseIdSequence, ResponsesStore } from '../../src/gateway/responses.service.js';
import { parseResponsesBody } from '../../src/gateway/wire/responses.schemas.js';
import { responseObject } from '../../src/gateway/wire/responses.js';
import { createScratchDatabase } from '../../test/helpers/scratch-database.js';
import { createTestOrganization } from '../../test/helpers/orgs.js';
import { systemClock } from '../../src/clock.js';

const database = await createScratchDatabase(process.env.DATABASE_URL!, 'store_probe');
const orm = await openDatabase({ databaseUrl: database.url }, { entities });
try {
  const org = await createTestOrganization(orm);
  const store = new ResponsesStore({ orm, secrets: createSecretBox(randomBytes(32)), clock: systemClock, retentionDays: 30, limits: { QUOTA_STORED_RESPONSE_BYTES: Number.MAX_SAFE_INTEGER, BODY_LIMIT_BYTES: 1 << 20 } });
  const body = parseResponsesBody({ model: 'fake-model', input: 'Summarize the meeting notes in two sentences.' });
  const caller = { organizationId: org.id, userId: org.member.id, role: org.member.role };
  const make = (ids: ResponseIdSequence) => responseObject({ id: ids.response, createdAt: 0, model: 'fake-model', body }, { status: 'completed', output: [{ type: 'message', id: ids.item('msg'), status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello from the fake upstream', annotations: [] }] }], usage: { inputTokens: 11, outputTokens: 7 } });
  const pause = () => new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 10));
  for (const [label, concurrency, total, think] of [['warm-up', 8, 500, false], ['sequential', 1, 1000, false], ['64 at once', 64, 6400, false], ['64 clients, 10-20 ms apart', 64, 6400, true]] as const) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next++ < total) {
        if (think) await pause();
        const turn = await store.begin(caller, body);
        await store.save(caller, turn, JSON.stringify(make(turn.ids)));
      }
    }));
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    console.log(`${label}: ${(ms / (total / concurrency)).toFixed(3)} ms per save (latency), ${(total / (ms / 1000)).toFixed(0)} saves/s, CPU ${((used.user + used.system) / total).toFixed(1)} µs per save`);
  }
} finally {
  await orm.close();
  await database.drop();
}

// The fake upstream of bench:hostile in a process of its own (its JSON parsing of 1 MiB prompts
// must not count as the API's stall): answers without usage, so every answer's usage is
// estimated; prints its base URL on stdout and runs until killed.
import { startFakeUpstream } from '../../test/fixtures/fake-upstream.js';

const upstream = await startFakeUpstream();
upstream.setDefault({ usage: null });
console.log(upstream.baseUrl);

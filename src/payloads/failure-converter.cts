// The failure converter of the worker and the workflow sandbox (`failureConverterPath`): error
// messages and stack traces move into an encoded payload, so the codec encrypts them like any
// other payload (an error message can quote customer text). The worker require()s this path
// itself, also where no TypeScript loader runs (vitest's workers), so the source is CommonJS in
// plain JavaScript syntax; tsc emits it as failure-converter.cjs for the build.
/* eslint-disable @typescript-eslint/no-require-imports */
const { DefaultFailureConverter } = require('@temporalio/common');

exports.failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });

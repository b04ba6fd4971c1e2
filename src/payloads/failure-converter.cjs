// The failure converter of the worker and the workflow sandbox (`failureConverterPath`): error
// messages and stack traces move into an encoded payload, so the codec encrypts them like any
// other payload (an error message can quote customer text). CommonJS, because the worker
// require()s this path itself in every runtime: tsx, vitest and the built image.
const { DefaultFailureConverter } = require('@temporalio/common');

exports.failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });

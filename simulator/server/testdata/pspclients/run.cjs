// run.cjs runs a partner's calls of a PSP client one after another and
// prints one JSON line per call: {"call", "ok", "error"?}. A call that
// throws, or whose answer its check refuses, is not ok; the rest run.
'use strict';

function describe(err) {
  if (err === undefined || err === null) return String(err);
  if (err instanceof Error) return err.message;
  try {
    return JSON.stringify(err);
  } catch (_) {
    return String(err);
  }
}

// A call the client does not have (sdk given, and no method of the
// call's name on it) is printed as skipped.
module.exports = async function run(calls, sdk) {
  const results = {};
  for (const [name, call, check] of calls) {
    let line;
    if (sdk && typeof sdk[name] !== 'function') {
      process.stdout.write(JSON.stringify({ call: name, skipped: 'the client has no such method' }) + '\n');
      continue;
    }
    try {
      const answer = await call(results);
      results[name] = answer;
      const problem = check ? check(answer, results) : '';
      line = problem ? { call: name, ok: false, error: problem + ': ' + describe(answer) } : { call: name, ok: true };
    } catch (err) {
      line = { call: name, ok: false, error: describe(err) };
    }
    process.stdout.write(JSON.stringify(line) + '\n');
  }
};

// A parse pool thread (parse-pool.ts): parses the files it is sent with the
// format's parser and answers each with the advisories, or with the refusal
// (file, line, message) the importer reports as its own.
import { parentPort } from 'node:worker_threads';
import { PARSERS } from './format-parsers.js';
import { ImportError } from './normalized-advisory.js';
import type { ParseReply, ParseRequest } from './parse-pool.js';

parentPort!.on('message', (req: ParseRequest) => {
  let reply: ParseReply;
  try {
    reply = { id: req.id, advisories: PARSERS[req.format](req.file, req.bytes, req.opts) };
  } catch (err) {
    reply =
      err instanceof ImportError
        ? { id: req.id, refused: { file: err.file, line: err.line, message: err.message.slice(`${err.file}:${err.line}: `.length) } }
        : { id: req.id, failed: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  parentPort!.postMessage(reply);
});

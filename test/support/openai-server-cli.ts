/**
 * The local OpenAI-compatible server as its own process, for e2e tests and manual trials:
 *   npx tsx test/support/openai-server-cli.ts [--port N] [--latency MS [--jitter MS]] [--answers FILE.json] [--key KEY]
 *       [--fault KIND --fault-every N]
 * Prints its base URL (http://127.0.0.1:PORT/v1) as the first line of stdout, then one line per request
 * with --verbose. FILE.json maps question text to answer text. Stops on SIGTERM / SIGINT.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FAULTS, latencyDistribution, startOpenAIServer, type Fault, type ServerOptions } from './openai-server.js';

const { values } = parseArgs({
    options: {
        port: { type: 'string', default: '0' },
        latency: { type: 'string', default: '0' },
        jitter: { type: 'string', default: '0' },
        answers: { type: 'string' },
        answer: { type: 'string' },
        key: { type: 'string' },
        fault: { type: 'string' },
        'fault-every': { type: 'string', default: '0' },
        verbose: { type: 'boolean', default: false },
    },
});

const options: ServerOptions = { port: Number(values.port), latencyMs: Number(values.latency) };
if (Number(values.jitter) > 0)
    options.latencyMs = latencyDistribution({ meanMs: Number(values.latency), jitterMs: Number(values.jitter) });
if (values.answers) options.answers = JSON.parse(readFileSync(values.answers, 'utf8')) as Record<string, string>;
if (values.answer) {
    const fixed = values.answer;
    options.answer = () => fixed;
}
if (values.key) options.apiKey = values.key;
const every = Number(values['fault-every']);
if (values.fault) {
    if (!FAULTS.includes(values.fault as Fault)) {
        console.error(`--fault must be one of ${FAULTS.join(', ')}`);
        process.exit(2);
    }
    const kind = values.fault as Fault;
    options.fault = info => ((every > 0 ? info.n % every === 0 : true) ? kind : undefined);
}
const server = await startOpenAIServer(options);
console.log(server.url);
if (values.verbose) {
    setInterval(() => console.error(`requests: ${server.requests}`), 5000).unref();
}
const stop = () => {
    void server.close().then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

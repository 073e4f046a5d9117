/**
 * Every command of the "HalluProbe" category, registered before the language server is ready (each loads
 * the engine when first run). One file per command.
 */
import * as vscode from 'vscode';
import type { Services } from '../services.js';
import { previewQuestions } from './previewQuestions.js';
import { runSuite } from './runSuite.js';
import { runProbe } from './runProbe.js';
import { stopRun } from './stopRun.js';
import { showResults } from './showResults.js';
import { openGraph } from './openGraph.js';
import { openFact } from './openFact.js';
import { compareRuns } from './compareRuns.js';
import { compareModels } from './compareModels.js';
import { reviewAnswers } from './reviewAnswers.js';
import { exportReport } from './exportReport.js';
import { selectModel } from './selectModel.js';
import { setApiKey } from './setApiKey.js';
import { showFailures } from './showFailures.js';
import { showRunProgress } from './showRunProgress.js';
import { restartServer } from './restartServer.js';
import { importDatabase } from './importDatabase.js';
import { previewRule } from './previewRule.js';
import { setDatabasePassword } from './setDatabasePassword.js';

export type { Services } from '../services.js';

type Handler = (s: Services, arg?: unknown) => unknown;

const COMMANDS: Record<string, Handler> = {
    'halluprobe.previewQuestions': previewQuestions,
    'halluprobe.runSuite': runSuite,
    'halluprobe.runProbe': runProbe,
    'halluprobe.stopRun': stopRun,
    'halluprobe.showResults': showResults,
    'halluprobe.openGraph': openGraph,
    'halluprobe.openFact': openFact,
    'halluprobe.compareRuns': compareRuns,
    'halluprobe.compareModels': compareModels,
    'halluprobe.reviewAnswers': reviewAnswers,
    'halluprobe.exportReport': exportReport,
    'halluprobe.selectModel': selectModel,
    'halluprobe.setApiKey': setApiKey,
    'halluprobe.showFailures': showFailures,
    'halluprobe.showRunProgress': showRunProgress,
    'halluprobe.restartServer': restartServer,
    'halluprobe.importDatabase': importDatabase,
    'halluprobe.setDatabasePassword': setDatabasePassword,
    'halluprobe.previewRule': previewRule,
};

export function registerCommands(s: Services): void {
    for (const [id, handler] of Object.entries(COMMANDS)) {
        s.ctx.push(vscode.commands.registerCommand(id, (arg?: unknown) => handler(s, arg)));
    }
}

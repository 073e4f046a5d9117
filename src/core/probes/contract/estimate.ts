/**
 * The estimate capability of a probe family (optional): `halluprobe estimate` over one of its probes. A leaf, types only.
 */
import type { EstimateModel, EstimateRequest, EstimateRun, FigureEstimate } from '../estimate-types.js';

export interface EstimateCapability {
    /**
     * Statement: T / I / C of an expensive model from a sample. Given the cheap model's run of the probe and a way to
     * ask the expensive model chosen questions (each ask a run of the engine), the estimate. The run room's
     * `estimateProbe` runs the models and calls it.
     */
    estimate(
        request: EstimateRequest,
        cheap: EstimateRun,
        askExpensive: (questionIds: string[]) => Promise<EstimateRun>,
        expensive: EstimateModel,
    ): Promise<FigureEstimate>;
}

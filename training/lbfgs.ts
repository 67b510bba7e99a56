/**
 * Limited-memory BFGS for smooth convex objectives (here: L2-regularised logistic loss).
 * Full-batch and free of randomness, so the same data always gives the same weights.
 */

/** Writes the gradient at `x` into `gradient` and returns the objective's value. */
export type Objective = (x: Float64Array, gradient: Float64Array) => number;

export interface LbfgsOptions {
  maxIterations: number;
  /** Stop when the gradient's largest component falls below this. */
  gradientTolerance: number;
  /** Stop when one step improves the objective by less than this share of its value. */
  relativeTolerance: number;
  memory: number;
}

export interface LbfgsResult {
  x: Float64Array;
  value: number;
  iterations: number;
}

const DEFAULTS: LbfgsOptions = { maxIterations: 300, gradientTolerance: 1e-6, relativeTolerance: 1e-9, memory: 10 };

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

function maxAbs(a: Float64Array): number {
  let max = 0;
  for (const v of a) max = Math.max(max, Math.abs(v));
  return max;
}

/** The two-loop recursion: direction = −H·g from the stored curvature pairs. */
function searchDirection(gradient: Float64Array, steps: Float64Array[], changes: Float64Array[], rhos: number[]): Float64Array {
  const q = Float64Array.from(gradient);
  const alphas = new Array<number>(steps.length).fill(0);
  for (let k = steps.length - 1; k >= 0; k--) {
    const s = steps[k];
    const y = changes[k];
    const rho = rhos[k] ?? 0;
    if (s === undefined || y === undefined) continue;
    const alpha = rho * dot(s, q);
    alphas[k] = alpha;
    for (let i = 0; i < q.length; i++) q[i] = (q[i] ?? 0) - alpha * (y[i] ?? 0);
  }
  const lastS = steps[steps.length - 1];
  const lastY = changes[changes.length - 1];
  const gamma = lastS !== undefined && lastY !== undefined ? dot(lastS, lastY) / dot(lastY, lastY) : 1 / Math.max(maxAbs(gradient), 1e-12);
  for (let i = 0; i < q.length; i++) q[i] = (q[i] ?? 0) * gamma;
  for (let k = 0; k < steps.length; k++) {
    const s = steps[k];
    const y = changes[k];
    const rho = rhos[k] ?? 0;
    if (s === undefined || y === undefined) continue;
    const beta = rho * dot(y, q);
    const correction = (alphas[k] ?? 0) - beta;
    for (let i = 0; i < q.length; i++) q[i] = (q[i] ?? 0) + correction * (s[i] ?? 0);
  }
  for (let i = 0; i < q.length; i++) q[i] = -(q[i] ?? 0);
  return q;
}

export function minimize(objective: Objective, start: Float64Array, options: Partial<LbfgsOptions> = {}): LbfgsResult {
  const settings = { ...DEFAULTS, ...options };
  const size = start.length;
  let x = Float64Array.from(start);
  let gradient = new Float64Array(size);
  let value = objective(x, gradient);
  const steps: Float64Array[] = [];
  const changes: Float64Array[] = [];
  const rhos: number[] = [];
  let iterations = 0;

  while (iterations < settings.maxIterations && maxAbs(gradient) > settings.gradientTolerance) {
    iterations++;
    let direction = searchDirection(gradient, steps, changes, rhos);
    let slope = dot(direction, gradient);
    if (slope >= 0) {
      // Curvature memory went stale; fall back to steepest descent.
      steps.length = 0;
      changes.length = 0;
      rhos.length = 0;
      direction = searchDirection(gradient, steps, changes, rhos);
      slope = dot(direction, gradient);
    }

    // Backtracking line search with the Armijo sufficient-decrease condition.
    let stepSize = 1;
    const nextX = new Float64Array(size);
    const nextGradient = new Float64Array(size);
    let nextValue = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 40; attempt++) {
      for (let i = 0; i < size; i++) nextX[i] = (x[i] ?? 0) + stepSize * (direction[i] ?? 0);
      nextValue = objective(nextX, nextGradient);
      if (nextValue <= value + 1e-4 * stepSize * slope) break;
      stepSize *= 0.5;
    }
    if (!(nextValue < value)) break;

    const s = new Float64Array(size);
    const y = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      s[i] = (nextX[i] ?? 0) - (x[i] ?? 0);
      y[i] = (nextGradient[i] ?? 0) - (gradient[i] ?? 0);
    }
    const curvature = dot(s, y);
    if (curvature > 1e-12) {
      steps.push(s);
      changes.push(y);
      rhos.push(1 / curvature);
      if (steps.length > settings.memory) {
        steps.shift();
        changes.shift();
        rhos.shift();
      }
    }

    const improvement = value - nextValue;
    x = nextX;
    gradient = nextGradient;
    value = nextValue;
    if (improvement <= settings.relativeTolerance * Math.max(Math.abs(value), 1)) break;
  }
  return { x, value, iterations };
}

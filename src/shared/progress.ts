/** Progress events a long task reports (an import's rows/s, say); the operator's tools print them. */
export type Progress = (event: Record<string, unknown>) => void;

/** Newest modification time of a file, or of anything under a folder, in ms; 0 where there is none. */
export function newestMtime(at: string): number;

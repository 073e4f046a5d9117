export function nodeVersionProblem(version: string): string | undefined;

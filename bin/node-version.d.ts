export function nodeVersionProblem(version: string, where?: { checkout?: string }): string | undefined;

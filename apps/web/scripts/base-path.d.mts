export function basePathFromEnv(value: string | undefined): string;

// placeholder until generated
export const BUILTIN_SKILLS: Readonly<Record<string, string>> = {};

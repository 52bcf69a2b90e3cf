/** Setting `process.env` for a test file and putting back what was there (unset names are deleted again). */
export function setEnv(values: Record<string, string>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  Object.assign(process.env, values);
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** The environment the route handlers need to reach the mock provider as Anthropic (the default model). */
export const mockAnthropicEnv = (mockUrl: string): Record<string, string> => ({
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: `${mockUrl}/v1`,
  STRATA_DEFAULT_MODEL: "anthropic/claude-sonnet-4-5",
});

import { Fragment } from "react";
import { Notice } from "@/components/ui/notice";

/** The variables that configure a model provider (README, "Configuration"), in the README's order. */
export const PROVIDER_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "MISTRAL_API_KEY",
  "OPENAI_COMPATIBLE_BASE_URL",
] as const;

/** `A`, `B`, … or `Z` with each name in `<code>`. */
export function VariableList() {
  return (
    <>
      {PROVIDER_VARIABLES.map((v, i) => (
        <Fragment key={v}>
          {i === 0 ? "" : i === PROVIDER_VARIABLES.length - 1 ? " or " : ", "}
          <code>{v}</code>
        </Fragment>
      ))}
    </>
  );
}

/**
 * The composer's compact note when the server has no model: what to set, where, and that shell `!commands`
 * still run; the server's full help (`GET /api/config` `help`) folds out under "All settings".
 */
export function NoModelNote({ help }: { help?: string }) {
  return (
    <Notice kind="warning" title="No model is configured: prompts cannot be sent.">
      <span className="no-model-text">
        Set <VariableList /> in <code>.env.local</code> (or the server&apos;s environment), then restart{" "}
        <code>npm start</code>. Shell <code>!commands</code> still run.
      </span>
      {help ? (
        <details className="no-model-details">
          <summary>All settings</summary>
          <pre className="config-help">{help}</pre>
        </details>
      ) : null}
    </Notice>
  );
}

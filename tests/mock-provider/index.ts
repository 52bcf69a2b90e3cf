/** Public entry of the mock LLM provider (see README.md). */
export { anthropicErrorBody, validateAnthropicRequest } from "./anthropic";
export { renderChatTurn, validateChatRequest } from "./chat";
export { openaiErrorBody, validateOpenAIRequest } from "./openai";
export { DEFAULT_SCOPE, isScopeId, mockScopeKey, scopeOfKey } from "./scope";
export {
  type MockProvider,
  type MockProviderClient,
  type MockProviderOptions,
  type MockScopeHandle,
  mockProviderClient,
  startMockProvider,
} from "./server";
export { DEFAULT_TURN_TEXT, type RecordedRequest, type Turn, turnSchema } from "./types";

export {
  type CapturedRequest,
  createInspectorCapture,
  INSPECTOR_CAPTURE_PATH,
} from "./builtin/inspector-capture";
export {
  type BeforeAgentStartOutcome,
  ExtensionRunner,
  LEADING_SYSTEM_REMOVED_ERROR,
  RUNTIME_NOT_INITIALIZED_ERROR,
} from "./runner";
export type * from "./types";

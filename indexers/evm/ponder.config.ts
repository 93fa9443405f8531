// Ponder's root is indexers/evm; the config lives at the repository root.
export { default } from "../../ponder.config.js";

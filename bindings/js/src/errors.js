// Errors: one class per kind, named as the JSON-RPC server's `error.data.kind` strings,
// so that a caller branches on `err.kind` (or `instanceof`) and never on a message.
// Messages are the Rust host's (host/src/error.rs), carrying the guest's text.

/** Why a call failed. Every error leaves the home's files as they were before the call. */
export class MemoryError extends Error {
  /**
   * @param {string} message
   * @param {string} kind one of the RPC `data.kind` strings
   */
  constructor(message, kind) {
    super(message);
    this.name = new.target.name;
    /** The kind, as the RPC server's `error.data.kind`. */
    this.kind = kind;
  }
}

/** Defines a subclass whose kind is fixed. */
function kindClass(name, kind) {
  const cls = class extends MemoryError {
    /** @param {string} message */
    constructor(message) {
      super(message, kind);
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  cls.kind = kind;
  return cls;
}

/** The request is malformed; the text names the field. */
export const InvalidInputError = kindClass("InvalidInputError", "invalid_input");
/** The content looks like a credential and was not stored. */
export const SecretRefusedError = kindClass("SecretRefusedError", "secret_refused");
/** No memory with this id (or prefix) is visible to the caller. */
export const MemoryNotFoundError = kindClass("MemoryNotFoundError", "memory_not_found");
/** The id prefix starts more than one of the caller's memories. */
export const AmbiguousIdError = kindClass("AmbiguousIdError", "ambiguous_id");
/** No person the caller knows answers to this reference. */
export const PersonNotFoundError = kindClass("PersonNotFoundError", "person_not_found");
/** The caller may see this memory but not delete it. */
export const UnauthorizedError = kindClass("UnauthorizedError", "unauthorized");
/** No agent tool has this name. */
export const UnknownToolError = kindClass("UnknownToolError", "unknown_tool");
/** A file operation failed inside the call. */
export const StorageError = kindClass("StorageError", "storage");
/** The index failed in a way a rebuild did not mend. */
export const IndexError = kindClass("IndexError", "index");
/** Another process held the home's lock for longer than the wait allows. */
export const BusyError = kindClass("BusyError", "busy");
/** The policy component trapped, or could not be loaded. */
export const SandboxError = kindClass("SandboxError", "sandbox");
/** `config.toml` is malformed. */
export const ConfigError = kindClass("ConfigError", "config");
/** A file or folder of the home could not be used. */
export const IoError = kindClass("IoError", "io");
/** A bug in this host. */
export const InternalError = kindClass("InternalError", "internal");

/** The error classes by kind. */
export const ERROR_CLASSES = Object.fromEntries(
  [
    InvalidInputError, SecretRefusedError, MemoryNotFoundError, AmbiguousIdError,
    PersonNotFoundError, UnauthorizedError, UnknownToolError, StorageError, IndexError,
    BusyError, SandboxError, ConfigError, IoError, InternalError,
  ].map((c) => [c.kind, c]),
);

/**
 * Maps an exported interface's `error` variant (jco: `{ tag, val }`) onto a MemoryError,
 * with the Rust host's wording.
 * @param {{ tag: string, val: any }} e
 */
export function fromGuest(e) {
  const v = e.val;
  switch (e.tag) {
    case "invalid-input":
      return new InvalidInputError(v);
    case "invalid-arguments":
      return new InvalidInputError(v);
    case "secret-refused":
      return new SecretRefusedError(`refused: ${v}`);
    case "not-found":
      // memories' not-found carries an id; people's a reference.
      return e.people
        ? new PersonNotFoundError(`no person ${JSON.stringify(v)} is known to you`)
        : new MemoryNotFoundError(`no memory ${v} is visible to you`);
    case "unknown-person":
      return new PersonNotFoundError(`no person ${JSON.stringify(v)} is known to you`);
    case "ambiguous-id":
      return new AmbiguousIdError(`${v} is ambiguous: several of your memories start with it; give more characters`);
    case "unauthorized":
      return new UnauthorizedError(`not allowed: deleting memory ${v} needs a user`);
    case "unknown-tool":
      return new UnknownToolError(`unknown tool ${JSON.stringify(v)}: the tools are "remember" and "recall"`);
    case "storage":
      return new StorageError(`storage error: ${v}`);
    case "index":
      return new IndexError(`index error: ${v}`);
    default:
      return new InternalError(`unexpected error from the policy: ${JSON.stringify(e)}`);
  }
}

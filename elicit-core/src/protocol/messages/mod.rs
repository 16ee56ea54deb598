//! The wire messages of ACP elicitation, faithful to the official schema:
//! how they are written and read is in the
//! [protocol module's docs](crate::protocol#the-wire-messages).
//!
//! One file per message or part of one: [`capabilities`], [`scope`] (ids and
//! scope), [`request`] (modes and `elicitation/create`), [`response`],
//! [`completion`] (`elicitation/complete`) and [`error`] (the JSON-RPC error
//! object). Private: every item has one public path, `crate::protocol::X`.

mod capabilities;
mod completion;
mod error;
mod request;
mod response;
mod scope;

pub use capabilities::{ElicitationCapabilities, ModeCapabilities};
pub use completion::{CompleteElicitationNotification, ELICITATION_COMPLETE};
pub use error::{INVALID_PARAMS, JsonRpcError};
pub use request::{CreateElicitationRequest, ELICITATION_CREATE, ElicitationMode, Mode, OtherMode};
pub use response::{CreateElicitationResponse, ElicitationAction, OtherAction};
pub use scope::{ElicitationId, ElicitationScope, RequestId};

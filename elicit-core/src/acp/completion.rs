//! The `elicitation/complete` notification both ways.

use agent_client_protocol_schema::v1 as sdk;

use crate::protocol::{CompleteElicitationNotification, ElicitationId};

use super::support::by_value;

by_value!(From<CompleteElicitationNotification> for sdk::CompleteElicitationNotification);

impl From<&CompleteElicitationNotification> for sdk::CompleteElicitationNotification {
    fn from(notification: &CompleteElicitationNotification) -> Self {
        sdk::CompleteElicitationNotification::new(sdk::ElicitationId::from(
            &notification.elicitation_id,
        ))
        .meta(notification.meta.clone())
    }
}

by_value!(From<sdk::CompleteElicitationNotification> for CompleteElicitationNotification);

impl From<&sdk::CompleteElicitationNotification> for CompleteElicitationNotification {
    fn from(notification: &sdk::CompleteElicitationNotification) -> Self {
        CompleteElicitationNotification {
            elicitation_id: ElicitationId::from(&notification.elicitation_id),
            meta: notification.meta.clone(),
        }
    }
}

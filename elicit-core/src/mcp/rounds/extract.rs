//! [`Ask`] in rmcp's `#[tool]` functions: an extractor, and [`routed`],
//! which reads each request whole before rmcp's extractors take its parts.
//!
//! Why the router, and not the extractor alone: rmcp runs a function's
//! extractors in their order, and `Parameters<T>` and `JsonObject` *take*
//! the arguments (as `InputResponses` and `RequestState` take theirs), so an
//! `Ask` after them would see a request without its arguments and bind the
//! state to nothing. [`Routed`] reads the
//! request before any of that and leaves it in the request's extensions,
//! where `Ask` finds it whatever its place; without it, `Ask` refuses the
//! call, naming the fix, rather than lose the binding.
//!
//! Not for prompts: rmcp 3.11's `#[prompt_handler]` builds a prompt's
//! context without the request's `inputResponses` and `requestState`, and
//! a `#[prompt]` function cannot return an input-required result beside a
//! prompt (its `IntoGetPromptResult` takes one or the other), so a prompt
//! that asks is written in `get_prompt`, as rmcp's own tests of these
//! rounds write it, with [`Ask::prompt`].

use ::rmcp::RoleServer;
use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{CallToolResponse, ErrorData, Tool};
use ::rmcp::service::{MaybeSend, RequestContext};

use super::Ask;
use super::request::{RoundRequest, RoundResponse};

/// The request as [`Routed`] read it, before any extractor ran.
#[derive(Clone)]
struct WholeRequest(RoundRequest);

/// rmcp's tool router `router`, reading
/// each request whole before its extractors run, so an [`Ask`] extractor
/// sees the arguments, the answers and the state wherever it stands among
/// them:
///
/// ```text
/// #[tool_handler(router = elicit_core::mcp::routed(&self.tool_router))]
/// impl ServerHandler for Server {}
/// ```
///
/// It calls, lists and finds tools as the router does: nothing else
/// changes.
pub fn routed<R>(router: &R) -> Routed<'_, R> {
    Routed { router }
}

/// rmcp's router, reading each request whole first: [`routed`].
#[derive(Debug)]
pub struct Routed<'a, R> {
    router: &'a R,
}

impl<'a, S: MaybeSend + 'static> Routed<'a, ToolRouter<S>> {
    /// `ToolRouter::call`, the request read whole first.
    ///
    /// # Errors
    ///
    /// As `ToolRouter::call`: an unknown tool, a tool's own error.
    pub async fn call(
        &self,
        mut context: ToolCallContext<'_, S>,
    ) -> Result<CallToolResponse, ErrorData> {
        let request = RoundRequest::new(
            CallToolResponse::METHOD,
            context.name.as_ref(),
            context.arguments.as_ref(),
            context.input_responses.clone(),
            context.request_state.clone(),
        );
        context
            .request_context
            .extensions
            .insert(WholeRequest(request));
        self.router.call(context).await
    }

    /// `ToolRouter::list_all`: every tool, with its input schema.
    pub fn list_all(&self) -> Vec<Tool> {
        self.router.list_all()
    }

    /// `ToolRouter::get`: the tool named `name`.
    pub fn get(&self, name: &str) -> Option<&'a Tool> {
        self.router.get(name)
    }
}

/// The `Ask` of the request `context` carries, if [`Routed`] read it for
/// the method `R` answers.
fn whole<R: RoundResponse>(context: &RequestContext<RoleServer>) -> Result<Ask<R>, ErrorData> {
    match context.extensions.get::<WholeRequest>() {
        Some(WholeRequest(request)) if request.method == R::METHOD => {
            Ok(Ask::of(context.clone(), request.clone()))
        }
        _ => {
            refused!(Internal, step = "not routed");
            Err(not_routed())
        }
    }
}

/// The server's mistake, named with its fix: an `Ask` whose request was
/// not read whole first.
fn not_routed() -> ErrorData {
    ErrorData::internal_error(
        "elicit's `Ask` needs the whole request, read before the other extractors take its \
         parts: route the tools through elicit, `#[tool_handler(router = \
         elicit_core::mcp::routed(&self.tool_router))]`",
        None,
    )
}

/// `Ask` as an extractor of a `#[tool]` function, in any place among the
/// others, once the tools are [`routed`].
impl<S> FromContextPart<ToolCallContext<'_, S>> for Ask<CallToolResponse> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        whole(&context.request_context)
    }
}

//! [`Ask`] in rmcp's `#[tool]` and `#[prompt]` functions: an extractor,
//! [`routed`], which reads each request whole before rmcp's extractors take
//! its parts, and [`PromptReply`], what a `#[prompt]` that asks returns.
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
//! Prompts: rmcp 3.11's `#[prompt_handler]` builds a prompt's context
//! without the request's `inputResponses` and `requestState` (and replaces
//! a `get_prompt` written beside it), so `get_prompt` is
//! [`Routed::get_prompt`] instead, written by hand; and a `#[prompt]`
//! function's result is one of rmcp's `IntoGetPromptResult`s, none of
//! which is a prompt *or* an input-required round, so it returns a
//! [`PromptReply`].

use ::rmcp::RoleServer;
use ::rmcp::handler::server::common::FromContextPart;
use ::rmcp::handler::server::prompt::{IntoGetPromptResult, PromptContext};
use ::rmcp::handler::server::router::prompt::PromptRouter;
use ::rmcp::handler::server::router::tool::ToolRouter;
use ::rmcp::handler::server::tool::ToolCallContext;
use ::rmcp::model::{
    CallToolResponse, ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    InputRequiredResult, Prompt, Tool,
};
use ::rmcp::service::{MaybeSend, RequestContext};

use super::Ask;
use super::request::{RoundRequest, RoundResponse};

/// The request as [`Routed`] read it, before any extractor ran.
#[derive(Clone)]
struct WholeRequest(RoundRequest);

/// rmcp's router `router` (a `ToolRouter` or a `PromptRouter`), reading
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
/// changes. Prompts: [`Routed::get_prompt`].
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

impl<S: MaybeSend + 'static> Routed<'_, PromptRouter<S>> {
    /// `ServerHandler::get_prompt`'s body: `PromptRouter::get_prompt`, the
    /// request read whole first, so a `#[prompt]` function's
    /// `Ask<GetPromptResponse>` has its answers and its state.
    /// `#[prompt_handler]` would drop them (and replace this method): write
    /// `get_prompt` and `list_prompts` by hand, each a line.
    ///
    /// # Errors
    ///
    /// As `PromptRouter::get_prompt`: an unknown prompt, a prompt's own
    /// error.
    pub async fn get_prompt(
        &self,
        server: &S,
        request: GetPromptRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        context
            .extensions
            .insert(WholeRequest(RoundRequest::prompt(&request)));
        let context = PromptContext::new(server, request.name, request.arguments, context);
        self.router.get_prompt(context).await
    }

    /// `PromptRouter::list_all`: every prompt, with its arguments.
    pub fn list_all(&self) -> Vec<Prompt> {
        self.router.list_all()
    }
}

/// What a `#[prompt]` function that asks returns: the prompt, or the
/// input-required round that [`Asked::Respond`](super::Asked::Respond)
/// holds (`Ok(response.into())`, `Ok(GetPromptResult::new(..).into())`).
#[derive(Debug)]
pub struct PromptReply(pub GetPromptResponse);

impl From<GetPromptResponse> for PromptReply {
    fn from(response: GetPromptResponse) -> Self {
        Self(response)
    }
}

impl From<GetPromptResult> for PromptReply {
    fn from(result: GetPromptResult) -> Self {
        Self(result.into())
    }
}

impl From<InputRequiredResult> for PromptReply {
    fn from(round: InputRequiredResult) -> Self {
        Self(round.into())
    }
}

impl IntoGetPromptResult for PromptReply {
    fn into_get_prompt_result(self) -> Result<GetPromptResponse, ErrorData> {
        Ok(self.0)
    }
}

/// The `Ask` of the request `context` carries, if [`Routed`] read it for
/// the method `R` answers.
/// Taken out, so the request (its arguments) is not copied again.
fn whole<R: RoundResponse>(context: &mut RequestContext<RoleServer>) -> Result<Ask<R>, ErrorData> {
    match context.extensions.remove::<WholeRequest>() {
        Some(WholeRequest(request)) if request.method == R::METHOD => {
            Ok(Ask::of(context.clone(), request))
        }
        _ => {
            refused!(Internal, step = "not routed");
            Err(not_routed(R::METHOD))
        }
    }
}

/// The server's mistake, named with its fix: an `Ask` whose request was
/// not read whole first.
fn not_routed(method: &str) -> ErrorData {
    let message = if method == GetPromptResponse::METHOD {
        "elicit's `Ask` needs the whole request, read before the other extractors take its \
         parts: write `get_prompt` as `elicit_core::mcp::routed(&self.prompt_router)\
         .get_prompt(self, request, context).await` (not `#[prompt_handler]`, which drops \
         the request's answers)"
    } else {
        "elicit's `Ask` needs the whole request, read before the other extractors take its \
         parts: route the tools through elicit, `#[tool_handler(router = \
         elicit_core::mcp::routed(&self.tool_router))]`"
    };
    ErrorData::internal_error(message, None)
}

/// `Ask` as an extractor of a `#[tool]` function, in any place among the
/// others, once the tools are [`routed`].
impl<S> FromContextPart<ToolCallContext<'_, S>> for Ask<CallToolResponse> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        whole(&mut context.request_context)
    }
}

/// `Ask<GetPromptResponse>` as an extractor of a `#[prompt]` function, in
/// any place among the others, once `get_prompt` is
/// [`Routed::get_prompt`].
impl<S> FromContextPart<PromptContext<'_, S>> for Ask<GetPromptResponse> {
    fn from_context_part(context: &mut PromptContext<'_, S>) -> Result<Self, ErrorData> {
        whole(&mut context.context)
    }
}

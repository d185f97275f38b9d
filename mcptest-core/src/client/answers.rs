//! What the client answers when the server asks something of it: sampling
//! (`sampling/createMessage`), roots (`roots/list`) and elicitation
//! (`elicitation/create`).

use std::{fmt, future::Future, pin::Pin, sync::Arc};

use rmcp::{
    ErrorData,
    model::{
        CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult,
        ElicitationAction, Role, Root, SamplingMessage,
    },
};
use serde_json::Value;

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;
type Handler<P, R> = Arc<dyn Fn(P) -> BoxFuture<Result<R, ErrorData>> + Send + Sync>;

fn boxed<P, R, F, Fut>(f: F) -> Handler<P, R>
where
    F: Fn(P) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<R, ErrorData>> + Send + 'static,
{
    Arc::new(move |p| Box::pin(f(p)))
}

/// The client's answer to `sampling/createMessage`.
///
/// ```
/// use mcptest::{Sampling, Server};
///
/// // always the same reply
/// let server = Server::command("my-server").sampling(Sampling::text("42").model("mock-llm"));
///
/// // or computed from the request
/// let server = Server::command("my-server").sampling(Sampling::handler(|request| async move {
///     let n = request.messages.len();
///     Ok(mcptest::rmcp::model::CreateMessageResult::new(
///         mcptest::rmcp::model::SamplingMessage::assistant_text(format!("{n} messages")),
///         "mock".into(),
///     ))
/// }));
/// ```
#[derive(Clone)]
pub struct Sampling(SamplingKind);

#[derive(Clone)]
enum SamplingKind {
    Text {
        text: String,
        model: String,
        stop_reason: Option<String>,
    },
    Handler(Handler<CreateMessageRequestParams, CreateMessageResult>),
}

impl Sampling {
    /// Reply with an assistant message holding `text`, from model
    /// `"mcptest-mock"` with stop reason `"endTurn"`.
    pub fn text(text: impl Into<String>) -> Self {
        Sampling(SamplingKind::Text {
            text: text.into(),
            model: "mcptest-mock".into(),
            stop_reason: Some(CreateMessageResult::STOP_REASON_END_TURN.into()),
        })
    }

    /// The model name in the reply (for [`Sampling::text`]).
    pub fn model(mut self, model: impl Into<String>) -> Self {
        if let SamplingKind::Text { model: m, .. } = &mut self.0 {
            *m = model.into();
        }
        self
    }

    /// The stop reason in the reply (for [`Sampling::text`]).
    pub fn stop_reason(mut self, reason: impl Into<String>) -> Self {
        if let SamplingKind::Text { stop_reason, .. } = &mut self.0 {
            *stop_reason = Some(reason.into());
        }
        self
    }

    /// Compute the reply (or a JSON-RPC error) from the request.
    pub fn handler<F, Fut>(f: F) -> Self
    where
        F: Fn(CreateMessageRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<CreateMessageResult, ErrorData>> + Send + 'static,
    {
        Sampling(SamplingKind::Handler(boxed(f)))
    }

    pub(crate) async fn answer(
        &self,
        request: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorData> {
        match &self.0 {
            SamplingKind::Text {
                text,
                model,
                stop_reason,
            } => {
                let mut result = CreateMessageResult::new(
                    SamplingMessage::new(Role::Assistant, text.clone()),
                    model.clone(),
                );
                result.stop_reason = stop_reason.clone();
                Ok(result)
            }
            SamplingKind::Handler(f) => f(request).await,
        }
    }
}

impl fmt::Debug for Sampling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            SamplingKind::Text { text, model, .. } => {
                write!(f, "Sampling::text({text:?}).model({model:?})")
            }
            SamplingKind::Handler(_) => f.write_str("Sampling::handler(..)"),
        }
    }
}

/// The client's answer to `roots/list`.
///
/// ```
/// use mcptest::{Roots, Server};
///
/// let server = Server::command("my-server").roots(Roots::uris(["file:///tmp/project"]));
/// ```
#[derive(Clone)]
pub struct Roots(RootsKind);

#[derive(Clone)]
enum RootsKind {
    List(Vec<Root>),
    Handler(Handler<(), Vec<Root>>),
}

impl Roots {
    /// A fixed list of roots.
    pub fn list(roots: impl IntoIterator<Item = Root>) -> Self {
        Roots(RootsKind::List(roots.into_iter().collect()))
    }

    /// A fixed list of roots given by URI (no names).
    pub fn uris<S: Into<String>>(uris: impl IntoIterator<Item = S>) -> Self {
        Roots::list(uris.into_iter().map(Root::new))
    }

    /// Compute the roots each time the server asks.
    pub fn handler<F, Fut>(f: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Vec<Root>, ErrorData>> + Send + 'static,
    {
        Roots(RootsKind::Handler(boxed(move |()| f())))
    }

    pub(crate) async fn answer(&self) -> Result<Vec<Root>, ErrorData> {
        match &self.0 {
            RootsKind::List(roots) => Ok(roots.clone()),
            RootsKind::Handler(f) => f(()).await,
        }
    }
}

impl fmt::Debug for Roots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            RootsKind::List(roots) => {
                let uris: Vec<&str> = roots.iter().map(|r| r.uri.as_str()).collect();
                write!(f, "Roots::uris({uris:?})")
            }
            RootsKind::Handler(_) => f.write_str("Roots::handler(..)"),
        }
    }
}

/// The client's answer to `elicitation/create`.
///
/// ```
/// use mcptest::{Elicitation, Server};
/// use serde_json::json;
///
/// let server = Server::command("my-server").elicitation(Elicitation::accept(json!({"name": "Ada"})));
/// let server = Server::command("my-server").elicitation(Elicitation::decline());
/// ```
#[derive(Clone)]
pub struct Elicitation(ElicitationKind);

#[derive(Clone)]
enum ElicitationKind {
    Fixed(ElicitationAction, Option<Value>),
    Handler(Handler<ElicitRequestParams, ElicitResult>),
}

impl Elicitation {
    /// Accept, answering with `content` (an object matching the requested schema).
    pub fn accept(content: Value) -> Self {
        Elicitation(ElicitationKind::Fixed(
            ElicitationAction::Accept,
            Some(content),
        ))
    }

    /// Decline to answer.
    pub fn decline() -> Self {
        Elicitation(ElicitationKind::Fixed(ElicitationAction::Decline, None))
    }

    /// Cancel the whole operation.
    pub fn cancel() -> Self {
        Elicitation(ElicitationKind::Fixed(ElicitationAction::Cancel, None))
    }

    /// Compute the answer from the request.
    pub fn handler<F, Fut>(f: F) -> Self
    where
        F: Fn(ElicitRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<ElicitResult, ErrorData>> + Send + 'static,
    {
        Elicitation(ElicitationKind::Handler(boxed(f)))
    }

    pub(crate) async fn answer(
        &self,
        request: ElicitRequestParams,
    ) -> Result<ElicitResult, ErrorData> {
        match &self.0 {
            ElicitationKind::Fixed(action, content) => Ok(serde_json::from_value(
                serde_json::json!({ "action": action, "content": content }),
            )
            .expect("an ElicitResult is built from its own fields")),
            ElicitationKind::Handler(f) => f(request).await,
        }
    }
}

impl fmt::Debug for Elicitation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ElicitationKind::Fixed(action, content) => {
                write!(f, "Elicitation({action:?}, {content:?})")
            }
            ElicitationKind::Handler(_) => f.write_str("Elicitation::handler(..)"),
        }
    }
}

/// What makes a mock the same as another for a [shared](crate::Server::shared)
/// server: a fixed answer by its description, a handler by identity (clones of
/// one handler are the same; two closures never are).
pub(crate) fn share_key(
    sampling: Option<&Sampling>,
    roots: Option<&Roots>,
    elicitation: Option<&Elicitation>,
) -> String {
    let sampling = sampling.map(|m| match &m.0 {
        SamplingKind::Handler(f) => format!("sampling handler {:p}", Arc::as_ptr(f)),
        SamplingKind::Text {
            text,
            model,
            stop_reason,
        } => format!("sampling {text:?} {model:?} {stop_reason:?}"),
    });
    let roots = roots.map(|m| match &m.0 {
        RootsKind::Handler(f) => format!("roots handler {:p}", Arc::as_ptr(f)),
        RootsKind::List(_) => format!("{m:?}"),
    });
    let elicitation = elicitation.map(|m| match &m.0 {
        ElicitationKind::Handler(f) => format!("elicitation handler {:p}", Arc::as_ptr(f)),
        ElicitationKind::Fixed(action, content) => format!("elicitation {action:?} {content:?}"),
    });
    format!("{sampling:?} {roots:?} {elicitation:?}")
}

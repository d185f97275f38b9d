//! The client side of the connection as rmcp sees it: identity, capabilities,
//! and the answers to the server's requests (sampling, roots, elicitation).
//! Recording happens in the transport, which sees every message in order.

use rmcp::{
    ClientHandler, ErrorData, RoleClient,
    model::{
        ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
        ElicitResult, ListRootsResult,
    },
    service::RequestContext,
};

use super::answers::{Elicitation, Roots, Sampling};

pub(crate) struct Harness {
    pub(crate) config: ClientConfig,
    pub(crate) sampling: Option<Sampling>,
    pub(crate) roots: Option<Roots>,
    pub(crate) elicitation: Option<Elicitation>,
}

fn not_mocked(what: &str, setter: &str) -> ErrorData {
    ErrorData::new(
        rmcp::model::ErrorCode::METHOD_NOT_FOUND,
        format!("{what} is not mocked by this test client; configure Server::{setter}(..)"),
        None,
    )
}

impl ClientHandler for Harness {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn create_message(
        &self,
        params: CreateMessageRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        match &self.sampling {
            Some(sampling) => sampling.answer(params).await,
            None => Err(not_mocked("sampling/createMessage", "sampling")),
        }
    }

    async fn list_roots(
        &self,
        _context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        match &self.roots {
            Some(roots) => roots.answer().await.map(ListRootsResult::new),
            None => Err(not_mocked("roots/list", "roots")),
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        match &self.elicitation {
            Some(elicitation) => elicitation.answer(request).await,
            None => Err(not_mocked("elicitation/create", "elicitation")),
        }
    }
}

impl Harness {
    /// Answers one `inputRequests` entry of a stateless server's
    /// `input_required` result with the same mocks as a live request.
    pub(crate) async fn answer_input(
        &self,
        method: &str,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, ErrorData> {
        let invalid = |e: serde_json::Error| ErrorData::invalid_params(e.to_string(), None);
        let value = match method {
            "sampling/createMessage" => {
                let params = serde_json::from_value(params).map_err(invalid)?;
                let sampling = self
                    .sampling
                    .as_ref()
                    .ok_or_else(|| not_mocked(method, "sampling"))?;
                serde_json::to_value(sampling.answer(params).await?)
            }
            "roots/list" => {
                let roots = self
                    .roots
                    .as_ref()
                    .ok_or_else(|| not_mocked(method, "roots"))?;
                serde_json::to_value(ListRootsResult::new(roots.answer().await?))
            }
            "elicitation/create" => {
                let params = serde_json::from_value(params).map_err(invalid)?;
                let elicitation = self
                    .elicitation
                    .as_ref()
                    .ok_or_else(|| not_mocked(method, "elicitation"))?;
                serde_json::to_value(elicitation.answer(params).await?)
            }
            other => {
                return Err(ErrorData::new(
                    rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                    format!("unknown input request method {other}"),
                    None,
                ));
            }
        };
        value.map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}

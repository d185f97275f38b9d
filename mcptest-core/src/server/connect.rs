//! [`Server::connect`]: launch the server, then hand the transport to the
//! client's handshake.

use super::{
    Server,
    launch::{Started, start},
};
use crate::{
    client::{McpClient, connect::handshake},
    error::Error,
    server_messages::ServerMessages,
    transport::{endpoint::Endpoint, lines::LineTransport},
};

pub(super) async fn connect(server: &Server) -> Result<McpClient, Error> {
    #[cfg(feature = "http")]
    if server.credentials().is_some() {
        let authorized = server.clone().authorize().await?;
        return Box::pin(connect(&authorized)).await;
    }
    let options = &server.options;
    let fixture_dir = options.fixture_dir.clone();
    match start(server, ServerMessages::new())? {
        Started::Stream(streams) => {
            let inbound = streams.inbound;
            let transport = LineTransport::new(
                streams.read,
                streams.write,
                inbound.clone(),
                options.max_message_size,
            );
            let writer = transport.write_handle();
            let endpoint = Endpoint::new(
                inbound,
                Some(writer),
                streams.in_process,
                options.shutdown_grace,
            );
            handshake(transport, endpoint, &server.client, fixture_dir).await
        }
        #[cfg(feature = "http")]
        Started::Http(spec, inbound) => {
            let transport =
                super::http::transport(&spec, server.client.connect_timeout, inbound.clone())?;
            let endpoint = Endpoint::new(inbound, None, None, options.shutdown_grace);
            handshake(transport, endpoint, &server.client, fixture_dir).await
        }
        #[cfg(not(feature = "http"))]
        Started::Http(..) => Err(Error::InvalidConfig {
            message: "Streamable HTTP needs mcptest's `http` feature".into(),
        }),
    }
}

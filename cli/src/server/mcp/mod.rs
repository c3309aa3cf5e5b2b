//! The Model Context Protocol surface, with the official Rust SDK (`rmcp`): the memory as
//! tools an agent app's model can call, and as resources and a prompt a client may offer
//! its user (`resources`). `tools` defines the tools and renders their answers;
//! this file is the handler; `http` serves it over streamable HTTP behind tokens, and
//! [`serve_stdio`] over stdin and stdout (read by `stdio`), as desktop apps launch a server.
//!
//! Who the caller is never comes from the model: on stdio it is fixed by the flags (or
//! `ASH_USER_ID` / `ASH_CHAT_ID`) of the process the app launched; over HTTP it is the
//! caller of the bearer token, checked on every request.

mod http;
mod resources;
mod stdio;
mod structured;
mod tools;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, Result};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ResourceUpdatedNotificationParam,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt as _};

use ash_memory::{Caller, MemoryStoreBuilder};

use super::worker::Worker;
pub use http::serve_http;

/// What the server tells the model about itself at initialization.
const INSTRUCTIONS: &str = "Long-term memory about the user. Call get_context with the user's message \
before answering to see what you already know; call remember when the user tells you something worth \
keeping (a preference, a fact about them or the people in their life, a plan); call recall to look \
something up; forget when they ask you to forget something. Never store passwords or keys: they are refused.";

/// The memory tools for one kind of caller.
#[derive(Clone)]
pub struct MemoryTools {
    worker: Worker,
    tools: Arc<Vec<Tool>>,
    /// The caller on stdio; `None` over HTTP, where each request carries its own.
    fixed_caller: Option<Caller>,
    /// The resources the client asked to hear about (stdio only: over HTTP no session
    /// outlives its request).
    subscribed: Arc<Mutex<BTreeSet<String>>>,
}

impl MemoryTools {
    /// The tools, with `remember` and `recall` as the policy component defines them.
    pub async fn new(worker: Worker, fixed_caller: Option<Caller>) -> Result<Self> {
        let schemas = worker
            .run(|s| s.tool_schemas())
            .await
            .context("reading the tool schemas")?;
        Ok(MemoryTools {
            worker,
            tools: Arc::new(tools::definitions(&schemas)?),
            fixed_caller,
            subscribed: Arc::default(),
        })
    }

    /// The subscribed resources. (A panic while they were held leaves a set still whole.)
    fn subscribed(&self) -> std::sync::MutexGuard<'_, BTreeSet<String>> {
        self.subscribed.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn caller(&self, context: &RequestContext<RoleServer>) -> Result<Caller, ErrorData> {
        if let Some(caller) = &self.fixed_caller {
            return Ok(caller.clone());
        }
        context
            .extensions
            .get::<::http::request::Parts>()
            .and_then(|parts| parts.extensions.get::<Caller>())
            .cloned()
            .ok_or_else(|| ErrorData::invalid_request("this request carries no caller", None))
    }
}

impl ServerHandler for MemoryTools {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .build();
        if self.fixed_caller.is_some()
            && let Some(resources) = capabilities.resources.as_mut()
        {
            resources.subscribe = Some(true);
        }
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("ash-memory", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let caller = self.caller(&context)?;
        let arguments = request.arguments.unwrap_or_default();
        let call = match tools::Call::parse(&request.name, arguments) {
            Ok(call) => call,
            Err(tools::Unmade::NoTool(e)) => return Err(e),
            Err(tools::Unmade::Arguments(why)) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(why)]).into());
            }
        };
        let writes = call.writes();
        // A refusal or a missing memory is an answer the model should see and act on,
        // so it is a tool result marked as an error, not a protocol error.
        let result = match call.run(&self.worker, caller).await {
            Ok(answer) => {
                let mut result = CallToolResult::success(vec![ContentBlock::text(answer.text)]);
                result.structured_content = Some(answer.structured);
                result
            }
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
        };
        if writes && result.is_error != Some(true) {
            // What a write changed is not worked out: every subscribed resource may have, and
            // the client reads again what it shows. Sent before the answer, so it comes first.
            let subscribed: Vec<String> = self.subscribed().iter().cloned().collect();
            for uri in subscribed {
                let sent = context
                    .peer
                    .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                    .await;
                if let Err(e) = sent {
                    tracing::debug!("a resource notification was not sent: {e}");
                }
            }
        }
        Ok(result.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        if self.fixed_caller.is_none() {
            return Err(ErrorData::invalid_request(
                "subscriptions need a session; over HTTP every request stands alone",
                None,
            ));
        }
        resources::known(&request.uri)?;
        self.subscribed().insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed().remove(&request.uri);
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(resources::templates()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let caller = self.caller(&context)?;
        Ok(resources::read(&self.worker, caller, request.uri).await?.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(resources::prompts()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(resources::prompt(&request.name)?.into())
    }
}

/// `ash-memory mcp`: serves the tools on stdin and stdout until the client closes stdin.
pub fn serve_stdio(builder: MemoryStoreBuilder, caller: Caller) -> Result<()> {
    // One client, one call at a time: its reads need no readers of their own.
    let (worker, store_thread) = Worker::start(builder, 0, 1)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the MCP runtime")?;
    let served = runtime.block_on(async move {
        let tools = MemoryTools::new(worker, Some(caller)).await?;
        let (read, write) = rmcp::transport::stdio_pipes();
        let running = tools
            .serve(stdio::Stdio::new(read, write))
            .await
            .context("starting MCP on stdio")?;
        let reason = running.waiting().await.context("serving MCP on stdio")?;
        tracing::debug!("MCP on stdio ended: {reason:?}");
        anyhow::Ok(())
    });
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    store_thread.join();
    served
}

// Generated from the API's OpenAPI document by console/scripts/generate-api-types.ts; do not edit.
/* eslint-disable */
export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/api-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["signInWithApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oidcLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/oidc/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["oidcCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["inviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/role": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["changeUserRole"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["changeUserStatus"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}/transfer-ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["transferOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["removeUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listApiKeys"];
        put?: never;
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAuditLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/diagnostics/workflow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["runWorkflowDiagnostics"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createChatCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/dlp/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getDlpPolicy"];
        put: operations["updateDlpPolicy"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/budget": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put: operations["setBudget"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embeddings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createEmbeddings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/responses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createResponse"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/responses/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getResponse"];
        put?: never;
        post?: never;
        delete: operations["deleteResponse"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/responses/{id}/input_items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listResponseInputItems"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/messages/count_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["countMessageTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAutomations"];
        put?: never;
        post: operations["createAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getAutomation"];
        put: operations["updateAutomation"];
        post?: never;
        delete: operations["deleteAutomation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["activateAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["pauseAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/take-ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["takeAutomationOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["runAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/runs/{runId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/runs/{runId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["retryRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAutomationWebhooks"];
        put?: never;
        post: operations["createAutomationWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/automations/{id}/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete: operations["revokeAutomationWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["approveToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approvals/{id}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["denyToolCall"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/approval-links/{id}/{decision}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["openApprovalLink"];
        put?: never;
        post: operations["decideByApprovalLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketplace/skills/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getMarketplaceSkill"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/skills": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listSkills"];
        put?: never;
        post: operations["createSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/skills/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getSkill"];
        put: operations["updateSkill"];
        post?: never;
        delete: operations["deleteSkill"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/skills/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["createSkillVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/skills/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getSkillVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/skills/{id}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["publishSkill"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listConnectors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listConnections"];
        put?: never;
        post: operations["createConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getConnection"];
        put?: never;
        post?: never;
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tools/connections/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["testConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listAssistants"];
        put?: never;
        post: operations["createAssistant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getAssistant"];
        put: operations["updateAssistant"];
        post?: never;
        delete: operations["deleteAssistant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}/webhook/regenerate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["regenerateAssistantWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/assistants/{id}/take-ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["takeAssistantOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/{webhookId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["receiveWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/executions/{executionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getWebhookExecution"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codec/encode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["encodePayloads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/codec/decode": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["decodePayloads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post: operations["postMcpMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/console/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["getConsoleSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/gateway/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get: operations["listGatewayRequests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Health: {
            /** @constant */
            status: "ok";
        };
        Readiness: {
            /** @constant */
            status: "ok";
            checks: {
                [key: string]: string;
            };
        };
        User: {
            id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member";
            /** @enum {string} */
            status: "active" | "invited" | "disabled";
            lastLoginAt: string | null;
            createdAt: string;
        };
        SignedIn: {
            user: components["schemas"]["User"];
        };
        UserList: {
            users: components["schemas"]["User"][];
            total: number;
        };
        ApiKey: {
            id: string;
            name: string;
            prefix: string;
            userId: string;
            createdAt: string;
            lastUsedAt: string | null;
            revokedAt: string | null;
            models: string[] | null;
            monthlyBudget: number | null;
            rateLimitPerMinute: number | null;
            mcpTools: string[] | null;
            spentThisMonth: number;
        };
        CreatedApiKey: {
            id: string;
            name: string;
            key: string;
            prefix: string;
            createdAt: string;
            models: string[] | null;
            monthlyBudget: number | null;
            rateLimitPerMinute: number | null;
            mcpTools: string[] | null;
        };
        ApiKeyList: {
            apiKeys: components["schemas"]["ApiKey"][];
            total: number;
        };
        AuditEvent: {
            id: string;
            action: string;
            actorUserId: string | null;
            actorApiKeyId: string | null;
            targetType: string | null;
            targetId: string | null;
            metadata: {
                [key: string]: unknown;
            };
            requestId: string | null;
            createdAt: string;
        };
        AuditLogList: {
            auditLogs: components["schemas"]["AuditEvent"][];
            total: number;
        };
        Diagnostics: {
            /** @constant */
            status: "ok";
            workflowId: string;
            runId: string;
            databaseTime: string;
            workerTaskQueue: string;
        };
        ChatCompletion: {
            id: string;
            /** @constant */
            object: "chat.completion";
            created: number;
            model: string;
            choices: {
                index: number;
                message: {
                    /** @constant */
                    role: "assistant";
                    content: string | null;
                    tool_calls?: {
                        id: string;
                        /** @constant */
                        type: "function";
                        function: {
                            name: string;
                            arguments: string;
                        };
                    }[];
                };
                finish_reason: string | null;
                logprobs: null;
            }[];
            usage: {
                prompt_tokens: number;
                completion_tokens: number;
                total_tokens: number;
            };
        };
        DlpPolicy: {
            detectors: {
                [key: string]: "block" | "mask" | "log" | "off";
            };
            updatedAt: string | null;
        };
        AutomationListItem: {
            id: string;
            name: string;
            description: string;
            /** @enum {string} */
            status: "active" | "paused";
            schedule: string;
            timezone: string;
            model: string;
            lastRunAt: string | null;
            nextRunAt: string | null;
            createdAt: string;
        };
        AutomationList: {
            automations: components["schemas"]["AutomationListItem"][];
            total: number;
        };
        Automation: {
            id: string;
            name: string;
            description: string;
            /** @enum {string} */
            status: "active" | "paused";
            schedule: string;
            timezone: string;
            model: string;
            lastRunAt: string | null;
            nextRunAt: string | null;
            createdAt: string;
            ownerId: string;
            systemPrompt: string;
            skillId: string | null;
            skillVersion: number | null;
            tools: string[];
            toolApprovals: {
                [key: string]: "always" | "never";
            };
            channels: {
                /** @enum {string} */
                type: "slack" | "email" | "webhook";
                target: string;
                secret?: string;
            }[];
            skippedFires: number;
            missedFires: number;
            updatedAt: string;
        };
        PendingApproval: {
            id: string;
            tool: string;
            arguments: string;
            expiresAt: string;
        };
        Approval: {
            id: string;
            /** @enum {string} */
            status: "pending" | "approved" | "denied" | "expired" | "cancelled";
            tool: string;
            arguments: string;
            runId: string | null;
            automationId: string | null;
            executionId: string | null;
            assistantId: string | null;
            apiKeyId: string | null;
            requestedAt: string;
            expiresAt: string;
            decidedAt: string | null;
            decidedBy: string | null;
            decidedVia: ("api" | "link" | "signal" | "timer" | "cancel") | null;
            decidedChannel: string | null;
            reason: string | null;
        };
        ApprovalList: {
            approvals: components["schemas"]["Approval"][];
            total: number;
        };
        Run: {
            id: string;
            automationId: string;
            /** @enum {string} */
            trigger: "schedule" | "manual" | "webhook" | "catch-up";
            /** @enum {string} */
            status: "running" | "success" | "failure";
            startedAt: string;
            completedAt: string | null;
            duration: number | null;
            tokensInput: number | null;
            tokensOutput: number | null;
            estimatedCost: number | null;
            output: string | null;
            error: string | null;
            retryOf: string | null;
            scheduledFor: string | null;
            pendingApprovals: components["schemas"]["PendingApproval"][];
        };
        AutomationDetail: {
            id: string;
            name: string;
            description: string;
            /** @enum {string} */
            status: "active" | "paused";
            schedule: string;
            timezone: string;
            model: string;
            lastRunAt: string | null;
            nextRunAt: string | null;
            createdAt: string;
            ownerId: string;
            systemPrompt: string;
            skillId: string | null;
            skillVersion: number | null;
            tools: string[];
            toolApprovals: {
                [key: string]: "always" | "never";
            };
            channels: {
                /** @enum {string} */
                type: "slack" | "email" | "webhook";
                target: string;
                secret?: string;
            }[];
            skippedFires: number;
            missedFires: number;
            updatedAt: string;
            runSummary: {
                counts: {
                    [key: string]: number;
                };
                total: number;
                recentRuns: components["schemas"]["Run"][];
            };
        };
        AutomationActivated: {
            id: string;
            /** @enum {string} */
            status: "active" | "paused";
            nextRunAt: string | null;
        };
        AutomationPaused: {
            id: string;
            /** @enum {string} */
            status: "active" | "paused";
        };
        RunStarted: {
            runId: string;
            automationId: string;
            /** @constant */
            status: "running";
            startedAt: string;
        };
        RunRetried: {
            runId: string;
            automationId: string;
            /** @constant */
            status: "running";
            startedAt: string;
            retryOf: string;
        };
        RunList: {
            runs: components["schemas"]["Run"][];
            total: number;
        };
        AutomationWebhook: {
            id: string;
            automationId: string;
            url: string;
            createdAt: string;
        };
        AutomationWebhookList: {
            webhooks: components["schemas"]["AutomationWebhook"][];
            total: number;
        };
        SkillVersion: {
            version: number;
            skillId: string;
            systemPrompt: string;
            tools: string[];
            approvalRequired: string[];
            /** @enum {string} */
            modelTier: "standard" | "premium" | "enterprise";
            notes: string | null;
            createdAt: string;
        };
        Skill: {
            id: string;
            name: string;
            description: string;
            category: string;
            systemPrompt: string | null;
            /** @enum {string} */
            modelTier: "standard" | "premium" | "enterprise";
            tools: string[];
            /** @enum {string} */
            visibility: "private" | "team" | "public";
            /** @enum {string} */
            status: "draft" | "published";
            currentVersion: number;
            publishedAt: string | null;
            marketplaceUrl: string | null;
            createdAt: string;
            updatedAt: string;
        };
        MarketplaceSkill: {
            id: string;
            name: string;
            description: string;
            category: string;
            publishedAt: string;
            currentVersion: {
                version: number;
                /** @enum {string} */
                modelTier: "standard" | "premium" | "enterprise";
                tools: string[];
                createdAt: string;
            };
        };
        SkillDetail: {
            id: string;
            name: string;
            description: string;
            category: string;
            systemPrompt: string | null;
            /** @enum {string} */
            modelTier: "standard" | "premium" | "enterprise";
            tools: string[];
            /** @enum {string} */
            visibility: "private" | "team" | "public";
            /** @enum {string} */
            status: "draft" | "published";
            currentVersion: number;
            publishedAt: string | null;
            marketplaceUrl: string | null;
            createdAt: string;
            updatedAt: string;
            versions: components["schemas"]["SkillVersion"][];
        };
        SkillList: {
            skills: components["schemas"]["Skill"][];
            total: number;
        };
        PublishResult: {
            id: string;
            /** @enum {string} */
            status: "draft" | "published";
            publishedAt: string;
            marketplaceUrl: string;
        };
        Connector: {
            id: string;
            name: string;
            category: string;
            /** @enum {string} */
            transport: "stdio" | "streamable-http";
            command: string;
            args?: string[];
            url?: string;
            requiredEnvVars: string[];
            optionalEnvVars: string[];
            description: string;
        };
        ConnectorList: {
            tools: components["schemas"]["Connector"][];
            total: number;
        };
        ConnectionSummary: {
            id: string;
            toolId: string;
            name: string;
            /** @enum {string} */
            status: "connected" | "error";
            connectedAt: string | null;
            lastTestedAt: string | null;
        };
        ConnectionList: {
            connections: components["schemas"]["ConnectionSummary"][];
        };
        Connection: {
            id: string;
            toolId: string;
            name: string;
            /** @enum {string} */
            status: "connected" | "error";
            connectedAt: string | null;
            lastTestedAt: string | null;
            testResult: string | null;
            tools: string[];
            envVars: string[];
            toolApprovals: {
                [key: string]: "always" | "never";
            };
            createdAt: string;
            updatedAt: string;
        };
        ConnectionTestResult: {
            id: string;
            toolId: string;
            /** @enum {string} */
            status: "connected" | "error";
            lastTestedAt: string;
            testResult: string;
            tools: string[];
        };
        UsageSummary: {
            period: {
                from: string;
                to: string;
            };
            totals: {
                requests: number;
                inputTokens: number;
                outputTokens: number;
                estimatedCost: number;
                cacheReadTokens: number;
                cacheWriteTokens: number;
                cacheSaving: number;
            };
            budgetCap: number | null;
            budgetRemaining: number | null;
        };
        UsageGroups: {
            groups: ({
                model: string;
                requests: number;
                inputTokens: number;
                outputTokens: number;
                estimatedCost: number;
                cacheReadTokens: number;
                cacheWriteTokens: number;
                cacheSaving: number;
            } | {
                userId: string;
                email: string | null;
                requests: number;
                inputTokens: number;
                outputTokens: number;
                estimatedCost: number;
                cacheReadTokens: number;
                cacheWriteTokens: number;
                cacheSaving: number;
            } | {
                day: string;
                requests: number;
                inputTokens: number;
                outputTokens: number;
                estimatedCost: number;
                cacheReadTokens: number;
                cacheWriteTokens: number;
                cacheSaving: number;
            } | {
                apiKeyId: string | null;
                name: string | null;
                prefix: string | null;
                requests: number;
                inputTokens: number;
                outputTokens: number;
                estimatedCost: number;
                cacheReadTokens: number;
                cacheWriteTokens: number;
                cacheSaving: number;
            })[];
        };
        UsageReport: components["schemas"]["UsageSummary"] | components["schemas"]["UsageGroups"];
        Budget: {
            monthlyCap: number | null;
            periodStart: string;
            spent: number;
            remaining: number | null;
        };
        Assistant: {
            id: string;
            name: string;
            description: string;
            systemPrompt: string;
            model: string;
            skillId: string | null;
            skillVersion: number | null;
            tools: string[];
            toolApprovals: {
                [key: string]: "always" | "never";
            };
            channels: {
                /** @enum {string} */
                type: "slack" | "email" | "webhook";
                target: string;
                secret?: string;
            }[];
            trigger: {
                /** @constant */
                type: "webhook";
            } | null;
            webhookUrl?: string;
            createdBy: string;
            ownerId: string;
            createdAt: string;
            updatedAt: string;
        };
        AssistantList: {
            assistants: components["schemas"]["Assistant"][];
            total: number;
        };
        WebhookAcknowledgment: {
            /** @constant */
            received: true;
            webhookId: string;
            executionId: string;
            /** @constant */
            status: "queued";
        };
        WebhookExecution: {
            executionId: string;
            /** @enum {string} */
            status: "queued" | "running" | "success" | "failure";
            target: {
                /** @constant */
                type: "assistant";
                assistantId: string;
            } | {
                /** @constant */
                type: "automation";
                automationId: string;
            };
            receivedAt: string;
            startedAt: string | null;
            completedAt: string | null;
            output?: string | null;
            usage?: {
                inputTokens: number;
                outputTokens: number;
                estimatedCost: number;
            } | null;
            model?: string | null;
            runId?: string | null;
            error?: string;
            pendingApprovals?: components["schemas"]["PendingApproval"][];
        };
        ModelList: {
            /** @constant */
            object: "list";
            data: {
                id: string;
                /** @constant */
                object: "model";
                created: number;
                owned_by: string;
            }[];
        };
        EmbeddingList: {
            /** @constant */
            object: "list";
            data: {
                /** @constant */
                object: "embedding";
                index: number;
                embedding: number[] | string;
            }[];
            model: string;
            usage: {
                prompt_tokens: number;
                total_tokens: number;
            };
        };
        Response: {
            id: string;
            /** @constant */
            object: "response";
            created_at: number;
            /** @enum {string} */
            status: "completed" | "incomplete" | "in_progress" | "failed";
            error: {
                code: string;
                message: string;
            } | null;
            incomplete_details: {
                reason: string;
            } | null;
            instructions: string | null;
            model: string;
            output: ({
                /** @constant */
                type: "message";
                id: string;
                status: string;
                /** @constant */
                role: "assistant";
                content: {
                    /** @constant */
                    type: "output_text";
                    text: string;
                    annotations: unknown[];
                }[];
            } | {
                /** @constant */
                type: "function_call";
                id: string;
                call_id: string;
                name: string;
                arguments: string;
                status: string;
            })[];
            output_text: string;
            previous_response_id: string | null;
            store: boolean;
            metadata: {
                [key: string]: string;
            };
            usage: {
                input_tokens: number;
                output_tokens: number;
                total_tokens: number;
                cost?: number;
            } | null;
        };
        ResponseInputItemList: {
            /** @constant */
            object: "list";
            data: ({
                /** @constant */
                type: "message";
                id: string;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "developer";
                /** @constant */
                status: "completed";
                content: ({
                    /** @enum {string} */
                    type: "input_text" | "output_text" | "refusal" | "input_image" | "input_file";
                } & {
                    [key: string]: unknown;
                })[];
            } | {
                /** @constant */
                type: "function_call";
                id: string;
                call_id: string;
                name: string;
                arguments: string;
                /** @constant */
                status: "completed";
            } | {
                /** @constant */
                type: "function_call_output";
                id: string;
                call_id: string;
                output: unknown;
                /** @constant */
                status: "completed";
            })[];
            first_id: string | null;
            last_id: string | null;
            has_more: boolean;
        };
        DeletedResponse: {
            id: string;
            /** @constant */
            object: "response";
            /** @constant */
            deleted: true;
        };
        AnthropicMessage: {
            id: string;
            /** @constant */
            type: "message";
            /** @constant */
            role: "assistant";
            model: string;
            content: ({
                /** @constant */
                type: "text";
                text: string;
            } | {
                /** @constant */
                type: "tool_use";
                id: string;
                name: string;
                input: unknown;
            })[];
            /** @enum {string} */
            stop_reason: "end_turn" | "max_tokens" | "stop_sequence" | "tool_use" | "refusal";
            stop_sequence: string | null;
            usage: {
                input_tokens: number;
                output_tokens: number;
            };
        };
        CountTokensResult: {
            input_tokens: number;
        };
        ConsoleSettings: {
            temporalUiOrigin: string;
            temporalNamespace: string;
        };
        GatewayRequest: {
            id: string;
            createdAt: string;
            modelRequested: string;
            model: string | null;
            provider: string | null;
            userId: string;
            apiKeyId: string | null;
            /** @enum {string} */
            source: "gateway" | "automation" | "webhook" | "assistant";
            runId: string | null;
            requestId: string | null;
            stream: boolean;
            status: number;
            /** @enum {string} */
            outcome: "success" | "failure" | "blocked" | "aborted" | "rejected";
            errorCode: string | null;
            attempts: number;
            latencyMs: number;
            inputTokens: number;
            outputTokens: number;
            cacheReadTokens: number;
            cacheWriteTokens: number;
            cost: number;
            estimated: boolean;
            cached: boolean;
        };
        GatewayRequestList: {
            requests: components["schemas"]["GatewayRequest"][];
            total: number;
            totalExact: boolean;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "bad_request" | "skill_not_publishable" | "unauthorized" | "budget_exceeded" | "forbidden" | "dlp_blocked" | "model_not_allowed" | "quota_exceeded" | "not_found" | "method_not_allowed" | "conflict" | "gone" | "payload_too_large" | "unsupported_media_type" | "rate_limited" | "internal_error" | "provider_error" | "provider_unavailable" | "service_unavailable";
                message: string;
                type: string;
                param: string | null;
            } & {
                [key: string]: unknown;
            };
        };
        AnthropicError: {
            /** @constant */
            type: "error";
            error: {
                type: string;
                message: string;
            };
        };
        LoginRequest: {
            /** Format: email */
            email: string;
            password: string;
            /** Format: uuid */
            organizationId?: string;
        };
        ApiKeySignInRequest: {
            apiKey: string;
        };
        AcceptInvitationRequest: {
            token: string;
            name: string;
            password: string;
        };
        InviteUserRequest: {
            /** Format: email */
            email: string;
            /**
             * @default member
             * @enum {string}
             */
            role: "admin" | "member";
        };
        ChangeRoleRequest: {
            /** @enum {string} */
            role: "admin" | "member";
        };
        ChangeStatusRequest: {
            /** @enum {string} */
            status: "active" | "disabled";
        };
        CreateApiKeyRequest: {
            name: string;
            models?: string[];
            monthlyBudget?: number;
            rateLimitPerMinute?: number;
            mcpTools?: string[];
        };
        ChatCompletionRequest: {
            model: string;
            messages: {
                /** @enum {string} */
                role: "system" | "user" | "assistant" | "tool";
                content?: (string | ({
                    /** @constant */
                    type: "text";
                    text: string;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "image_url";
                    image_url: {
                        url: string;
                        /** @enum {string} */
                        detail?: "auto" | "low" | "high";
                    };
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "file";
                    file: {
                        file_data: string;
                        filename?: string;
                    };
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                })[]) | null;
                name?: string;
                tool_calls?: {
                    id: string;
                    /** @constant */
                    type: "function";
                    function: {
                        name: string;
                        arguments: string;
                    };
                }[];
                tool_call_id?: string;
                cache_control?: {
                    /** @constant */
                    type: "ephemeral";
                    /** @enum {string} */
                    ttl?: "5m" | "1h";
                };
            }[];
            stream?: boolean;
            max_tokens?: number;
            max_completion_tokens?: number | null;
            temperature?: number;
            top_p?: number;
            tools?: {
                /** @constant */
                type: "function";
                function: {
                    name: string;
                    description?: string;
                    parameters?: {
                        [key: string]: unknown;
                    };
                };
                cache_control?: {
                    /** @constant */
                    type: "ephemeral";
                    /** @enum {string} */
                    ttl?: "5m" | "1h";
                };
            }[];
            tool_choice?: ("auto" | "none" | "required") | {
                /** @constant */
                type: "function";
                function: {
                    name: string;
                };
            };
            stream_options?: {
                include_usage?: boolean;
            } | null;
            response_format?: {
                /** @constant */
                type: "text";
            } | {
                /** @constant */
                type: "json_object";
            } | {
                /** @constant */
                type: "json_schema";
                json_schema: {
                    name: string;
                    description?: string;
                    schema?: {
                        [key: string]: unknown;
                    };
                    strict?: boolean | null;
                };
            };
            reasoning_effort?: ("none" | "minimal" | "low" | "medium" | "high" | "xhigh") | null;
            prompt_cache_key?: string;
            prompt_cache_retention?: ("in_memory" | "24h") | null;
        };
        DlpPolicyUpdate: {
            detectors: {
                [key: string]: "block" | "mask" | "log" | "off";
            };
        };
        BudgetRequest: {
            monthlyCap: number | null;
        };
        EmbeddingRequest: {
            model: string;
            input: string | string[];
            /** @enum {string} */
            encoding_format?: "float" | "base64";
            dimensions?: number;
            user?: string;
        };
        ResponsesRequest: {
            model: string;
            input?: string | ({
                /** @constant */
                type?: "message";
                id?: string;
                /** @enum {string} */
                role: "user" | "assistant" | "system" | "developer";
                content: string | ({
                    /** @constant */
                    type: "input_text";
                    text: string;
                } | {
                    /** @constant */
                    type: "output_text";
                    text: string;
                } | {
                    /** @constant */
                    type: "refusal";
                    refusal: string;
                } | {
                    /** @constant */
                    type: "input_image";
                    image_url: string;
                    /** @enum {string} */
                    detail?: "auto" | "low" | "high";
                } | {
                    /** @constant */
                    type: "input_file";
                    file_data: string;
                    filename?: string;
                })[];
            } | {
                /** @constant */
                type: "function_call";
                id?: string;
                call_id: string;
                name: string;
                arguments: string;
            } | {
                /** @constant */
                type: "function_call_output";
                id?: string;
                call_id: string;
                output: string | ({
                    /** @constant */
                    type: "input_text";
                    text: string;
                } | {
                    /** @constant */
                    type: "output_text";
                    text: string;
                } | {
                    /** @constant */
                    type: "input_image";
                    image_url: string;
                    /** @enum {string} */
                    detail?: "auto" | "low" | "high";
                } | {
                    /** @constant */
                    type: "input_file";
                    file_data: string;
                    filename?: string;
                })[];
            } | {
                /** @constant */
                type: "reasoning";
                id?: string;
                summary?: {
                    /** @constant */
                    type: "summary_text";
                    text: string;
                }[];
                content?: {
                    /** @constant */
                    type: "reasoning_text";
                    text: string;
                }[] | null;
                encrypted_content?: string | null;
            } | {
                /** @constant */
                type: "item_reference";
                id: string;
            })[];
            instructions?: string | null;
            tools?: {
                /** @constant */
                type: "function";
                name: string;
                description?: string | null;
                parameters?: {
                    [key: string]: unknown;
                } | null;
                strict?: boolean | null;
            }[];
            tool_choice?: ("auto" | "none" | "required") | {
                /** @constant */
                type: "function";
                name: string;
            };
            parallel_tool_calls?: boolean | null;
            reasoning?: {
                effort?: ("none" | "minimal" | "low" | "medium" | "high" | "xhigh") | null;
                summary?: ("auto" | "concise" | "detailed") | null;
            } | null;
            max_output_tokens?: number | null;
            temperature?: number | null;
            top_p?: number | null;
            text?: {
                format?: {
                    /** @constant */
                    type: "text";
                } | {
                    /** @constant */
                    type: "json_object";
                } | {
                    /** @constant */
                    type: "json_schema";
                    name: string;
                    description?: string;
                    schema: {
                        [key: string]: unknown;
                    };
                    strict?: boolean | null;
                };
            } | null;
            metadata?: {
                [key: string]: string;
            } | null;
            store?: boolean | null;
            stream?: boolean | null;
            previous_response_id?: string | null;
            prompt_cache_key?: string;
            prompt_cache_retention?: ("in_memory" | "24h") | null;
        };
        MessagesRequest: {
            model: string;
            messages: {
                /** @enum {string} */
                role: "user" | "assistant";
                content: string | ({
                    /** @constant */
                    type: "text";
                    text: string;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "image";
                    source: {
                        /** @constant */
                        type: "base64";
                        /** @enum {string} */
                        media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
                        data: string;
                    } | {
                        /** @constant */
                        type: "url";
                        url: string;
                    };
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "document";
                    source: {
                        /** @constant */
                        type: "base64";
                        /** @constant */
                        media_type: "application/pdf";
                        data: string;
                    } | {
                        /** @constant */
                        type: "text";
                        /** @constant */
                        media_type: "text/plain";
                        data: string;
                    };
                    title?: string | null;
                    context?: string | null;
                    citations?: {
                        enabled?: boolean;
                    };
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "tool_use";
                    id: string;
                    name: string;
                    input: unknown;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "tool_result";
                    tool_use_id: string;
                    content?: string | ({
                        /** @constant */
                        type: "text";
                        text: string;
                        cache_control?: {
                            /** @constant */
                            type: "ephemeral";
                            /** @enum {string} */
                            ttl?: "5m" | "1h";
                        };
                    } | {
                        /** @constant */
                        type: "image";
                        source: {
                            /** @constant */
                            type: "base64";
                            /** @enum {string} */
                            media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
                            data: string;
                        } | {
                            /** @constant */
                            type: "url";
                            url: string;
                        };
                        cache_control?: {
                            /** @constant */
                            type: "ephemeral";
                            /** @enum {string} */
                            ttl?: "5m" | "1h";
                        };
                    } | {
                        /** @constant */
                        type: "document";
                        source: {
                            /** @constant */
                            type: "base64";
                            /** @constant */
                            media_type: "application/pdf";
                            data: string;
                        } | {
                            /** @constant */
                            type: "text";
                            /** @constant */
                            media_type: "text/plain";
                            data: string;
                        };
                        title?: string | null;
                        context?: string | null;
                        citations?: {
                            enabled?: boolean;
                        };
                        cache_control?: {
                            /** @constant */
                            type: "ephemeral";
                            /** @enum {string} */
                            ttl?: "5m" | "1h";
                        };
                    })[];
                    is_error?: boolean;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "thinking";
                    thinking: string;
                    signature?: string;
                } | {
                    /** @constant */
                    type: "redacted_thinking";
                    data: string;
                })[];
            }[];
            system?: string | {
                /** @constant */
                type: "text";
                text: string;
                cache_control?: {
                    /** @constant */
                    type: "ephemeral";
                    /** @enum {string} */
                    ttl?: "5m" | "1h";
                };
            }[];
            tools?: {
                name: string;
                description?: string;
                input_schema: {
                    [key: string]: unknown;
                };
                cache_control?: {
                    /** @constant */
                    type: "ephemeral";
                    /** @enum {string} */
                    ttl?: "5m" | "1h";
                };
                /** @constant */
                type?: "custom";
            }[];
            tool_choice?: {
                /** @constant */
                type: "auto";
                disable_parallel_tool_use?: boolean;
            } | {
                /** @constant */
                type: "any";
                disable_parallel_tool_use?: boolean;
            } | {
                /** @constant */
                type: "none";
            } | {
                /** @constant */
                type: "tool";
                name: string;
                disable_parallel_tool_use?: boolean;
            };
            max_tokens: number;
            stream?: boolean;
            stop_sequences?: string[];
            temperature?: number;
            top_p?: number;
            top_k?: number;
            metadata?: {
                user_id?: string | null;
            };
            /** @enum {string} */
            service_tier?: "auto" | "standard_only";
            thinking?: {
                /** @constant */
                type: "enabled";
                budget_tokens: number;
            } | {
                /** @constant */
                type: "disabled";
            };
        };
        CountTokensRequest: {
            model: string;
            messages: {
                /** @enum {string} */
                role: "user" | "assistant";
                content: string | ({
                    /** @constant */
                    type: "text";
                    text: string;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "image";
                    source: {
                        /** @constant */
                        type: "base64";
                        /** @enum {string} */
                        media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
                        data: string;
                    } | {
                        /** @constant */
                        type: "url";
                        url: string;
                    };
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "document";
                    source: {
                        /** @constant */
                        type: "base64";
                        /** @constant */
                        media_type: "application/pdf";
                        data: string;
                    } | {
                        /** @constant */
                        type: "text";
                        /** @constant */
                        media_type: "text/plain";
                        data: string;
                    };
                    title?: string | null;
                    context?: string | null;
                    citations?: {
                        enabled?: boolean;
                    };
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "tool_use";
                    id: string;
                    name: string;
                    input: unknown;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "tool_result";
                    tool_use_id: string;
                    content?: string | ({
                        /** @constant */
                        type: "text";
                        text: string;
                        cache_control?: {
                            /** @constant */
                            type: "ephemeral";
                            /** @enum {string} */
                            ttl?: "5m" | "1h";
                        };
                    } | {
                        /** @constant */
                        type: "image";
                        source: {
                            /** @constant */
                            type: "base64";
                            /** @enum {string} */
                            media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp";
                            data: string;
                        } | {
                            /** @constant */
                            type: "url";
                            url: string;
                        };
                        cache_control?: {
                            /** @constant */
                            type: "ephemeral";
                            /** @enum {string} */
                            ttl?: "5m" | "1h";
                        };
                    } | {
                        /** @constant */
                        type: "document";
                        source: {
                            /** @constant */
                            type: "base64";
                            /** @constant */
                            media_type: "application/pdf";
                            data: string;
                        } | {
                            /** @constant */
                            type: "text";
                            /** @constant */
                            media_type: "text/plain";
                            data: string;
                        };
                        title?: string | null;
                        context?: string | null;
                        citations?: {
                            enabled?: boolean;
                        };
                        cache_control?: {
                            /** @constant */
                            type: "ephemeral";
                            /** @enum {string} */
                            ttl?: "5m" | "1h";
                        };
                    })[];
                    is_error?: boolean;
                    cache_control?: {
                        /** @constant */
                        type: "ephemeral";
                        /** @enum {string} */
                        ttl?: "5m" | "1h";
                    };
                } | {
                    /** @constant */
                    type: "thinking";
                    thinking: string;
                    signature?: string;
                } | {
                    /** @constant */
                    type: "redacted_thinking";
                    data: string;
                })[];
            }[];
            system?: string | {
                /** @constant */
                type: "text";
                text: string;
                cache_control?: {
                    /** @constant */
                    type: "ephemeral";
                    /** @enum {string} */
                    ttl?: "5m" | "1h";
                };
            }[];
            tools?: {
                name: string;
                description?: string;
                input_schema: {
                    [key: string]: unknown;
                };
                cache_control?: {
                    /** @constant */
                    type: "ephemeral";
                    /** @enum {string} */
                    ttl?: "5m" | "1h";
                };
                /** @constant */
                type?: "custom";
            }[];
            tool_choice?: {
                /** @constant */
                type: "auto";
                disable_parallel_tool_use?: boolean;
            } | {
                /** @constant */
                type: "any";
                disable_parallel_tool_use?: boolean;
            } | {
                /** @constant */
                type: "none";
            } | {
                /** @constant */
                type: "tool";
                name: string;
                disable_parallel_tool_use?: boolean;
            };
        };
        CreateAutomationRequest: {
            name: string;
            /** @default  */
            description: string;
            systemPrompt: string;
            /** @default standard */
            model: string;
            schedule: string;
            /** @default UTC */
            timezone: string;
            /** @default [] */
            tools: string[];
            /** @default {} */
            toolApprovals: {
                [key: string]: "always" | "never";
            };
            /** @default [] */
            channels: ({
                /** @constant */
                type: "slack";
                target: string;
                token?: string;
            } | {
                /** @constant */
                type: "email";
                /** Format: email */
                target: string;
            } | {
                /** @constant */
                type: "webhook";
                /** Format: uri */
                target: string;
                secret?: string;
            })[];
            /**
             * @default active
             * @enum {string}
             */
            status: "active" | "paused";
            /** @default null */
            skillId: string | null;
            /** @default null */
            skillVersion: number | null;
        };
        UpdateAutomationRequest: {
            name?: string;
            description?: string;
            systemPrompt?: string;
            model?: string;
            schedule?: string;
            timezone?: string;
            tools?: string[];
            toolApprovals?: {
                [key: string]: "always" | "never";
            };
            channels?: ({
                /** @constant */
                type: "slack";
                target: string;
                token?: string;
            } | {
                /** @constant */
                type: "email";
                /** Format: email */
                target: string;
            } | {
                /** @constant */
                type: "webhook";
                /** Format: uri */
                target: string;
                secret?: string;
            })[];
            /** @enum {string} */
            status?: "active" | "paused";
            skillId?: string | null;
            skillVersion?: number | null;
        };
        ApproveRequest: {
            remember?: boolean;
        };
        DenyRequest: {
            reason?: string;
        };
        CreateSkillRequest: {
            name: string;
            description: string;
            category: string;
            systemPrompt: string;
            /**
             * @default standard
             * @enum {string}
             */
            modelTier: "standard" | "premium" | "enterprise";
            /** @default [] */
            tools: string[];
            /** @default [] */
            approvalRequired: string[];
            /**
             * @default private
             * @enum {string}
             */
            visibility: "private" | "team" | "public";
        };
        UpdateSkillRequest: {
            name?: string;
            description?: string;
            category?: string;
            /** @enum {string} */
            visibility?: "private" | "team" | "public";
        };
        CreateSkillVersionRequest: {
            systemPrompt: string;
            tools?: string[];
            approvalRequired?: string[];
            /** @enum {string} */
            modelTier?: "standard" | "premium" | "enterprise";
            notes?: string;
        };
        CreateConnectionRequest: {
            toolId: string;
            name: string;
            /** @default {} */
            env: {
                [key: string]: string;
            };
            /** @default {} */
            toolApprovals: {
                [key: string]: "always" | "never";
            };
        };
        CreateAssistantRequest: {
            name: string;
            /** @default  */
            description: string;
            systemPrompt: string;
            /** @default standard */
            model: string;
            /** @default null */
            skillId: string | null;
            /** @default null */
            skillVersion: number | null;
            /** @default [] */
            tools: string[];
            /** @default {} */
            toolApprovals: {
                [key: string]: "always" | "never";
            };
            /** @default [] */
            channels: ({
                /** @constant */
                type: "slack";
                target: string;
                token?: string;
            } | {
                /** @constant */
                type: "email";
                /** Format: email */
                target: string;
            } | {
                /** @constant */
                type: "webhook";
                /** Format: uri */
                target: string;
                secret?: string;
            })[];
            /** @default null */
            trigger: {
                /** @constant */
                type: "webhook";
            } | null;
        };
        UpdateAssistantRequest: {
            name?: string;
            description?: string;
            systemPrompt?: string;
            model?: string;
            skillId?: string | null;
            skillVersion?: number | null;
            tools?: string[];
            toolApprovals?: {
                [key: string]: "always" | "never";
            };
            channels?: ({
                /** @constant */
                type: "slack";
                target: string;
                token?: string;
            } | {
                /** @constant */
                type: "email";
                /** Format: email */
                target: string;
            } | {
                /** @constant */
                type: "webhook";
                /** Format: uri */
                target: string;
                secret?: string;
            })[];
            trigger?: {
                /** @constant */
                type: "webhook";
            } | null;
        };
        WebhookPayload: unknown;
        CodecPayloads: {
            payloads: {
                metadata?: {
                    [key: string]: string;
                };
                data?: string;
            }[];
        };
        McpMessage: {
            /** @constant */
            jsonrpc: "2.0";
            method: string;
            id?: string | number;
            params?: {
                [key: string]: unknown;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    signInWithApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeySignInRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInvitationRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedIn"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    oidcLogin: {
        parameters: {
            query?: {
                invitation?: string;
                returnTo?: "console";
                organizationId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    oidcCallback: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            302: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    inviteUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InviteUserRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    changeUserRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeRoleRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    changeUserStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeStatusRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    transferOwnership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    removeUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "quota_exceeded" | "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listAuditLogs: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditLogList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    runWorkflowDiagnostics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Diagnostics"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    createChatCompletion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatCompletionRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatCompletion"];
                    "text/event-stream": string;
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "budget_exceeded";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "dlp_blocked" | "model_not_allowed" | "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "provider_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "provider_unavailable" | "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    getDlpPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DlpPolicy"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    updateDlpPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DlpPolicyUpdate"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DlpPolicy"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                groupBy?: "model" | "user" | "day" | "key";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    setBudget: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BudgetRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Budget"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createEmbeddings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmbeddingRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddingList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "budget_exceeded";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "dlp_blocked" | "model_not_allowed" | "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "provider_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "provider_unavailable";
                        };
                    };
                };
            };
        };
    };
    createResponse: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResponsesRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    "X-Gateway-Cost"?: string;
                    "X-Gateway-Overhead-Ms"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                    "text/event-stream": string;
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "budget_exceeded";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "dlp_blocked" | "model_not_allowed" | "quota_exceeded" | "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "provider_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "provider_unavailable" | "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    getResponse: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Response"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    deleteResponse: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedResponse"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listResponseInputItems: {
        parameters: {
            query?: {
                limit?: number;
                order?: "asc" | "desc";
                after?: string;
                include?: string | string[];
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResponseInputItemList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessagesRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    "X-Gateway-Cost"?: string;
                    "X-Gateway-Overhead-Ms"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicMessage"];
                    "text/event-stream": string;
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "invalid_request_error";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "authentication_error";
                        };
                    };
                };
            };
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "billing_error";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "permission_error";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "request_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "invalid_request_error";
                        };
                    };
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "rate_limit_error";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "api_error";
                        };
                    };
                };
            };
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "api_error";
                        };
                    };
                };
            };
            529: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "overloaded_error";
                        };
                    };
                };
            };
        };
    };
    countMessageTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CountTokensRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CountTokensResult"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "invalid_request_error";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "authentication_error";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "permission_error";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "request_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "invalid_request_error";
                        };
                    };
                };
            };
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "rate_limit_error";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnthropicError"] & {
                        error?: {
                            /** @enum {unknown} */
                            type?: "api_error";
                        };
                    };
                };
            };
        };
    };
    listAutomations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAutomationRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "quota_exceeded" | "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationDetail"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    updateAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAutomationRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    deleteAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    activateAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationActivated"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    pauseAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationPaused"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    takeAutomationOwnership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    runAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunStarted"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                limit?: string;
                offset?: string;
                status?: "running" | "success" | "failure";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    retryRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                runId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunRetried"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listAutomationWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationWebhookList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createAutomationWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationWebhook"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden" | "quota_exceeded";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    revokeAutomationWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                status?: "pending" | "approved" | "denied" | "expired" | "cancelled";
                automationId?: string;
                assistantId?: string;
                limit?: string;
                offset?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    approveToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ApproveRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    denyToolCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["DenyRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    openApprovalLink: {
        parameters: {
            query: {
                expires: string;
                channel: string;
                sig: string;
            };
            header?: never;
            path: {
                id: string;
                decision: "approve" | "deny";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "gone";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    decideByApprovalLink: {
        parameters: {
            query: {
                expires: string;
                channel: string;
                sig: string;
            };
            header?: never;
            path: {
                id: string;
                decision: "approve" | "deny";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "gone";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getMarketplaceSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketplaceSkill"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listSkills: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                visibility?: "private" | "team" | "public";
                status?: "draft" | "published";
                category?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createSkill: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSkillRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Skill"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillDetail"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    updateSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSkillRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Skill"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    deleteSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createSkillVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSkillVersionRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillVersion"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "conflict";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getSkillVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillVersion"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    publishSkill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublishResult"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "skill_not_publishable" | "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listConnectors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: {
                status?: "connected" | "error" | "all";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateConnectionRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "quota_exceeded" | "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    testConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionTestResult"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listAssistants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssistantList"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    createAssistant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAssistantRequest"];
            };
        };
        responses: {
            201: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "quota_exceeded" | "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getAssistant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    updateAssistant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAssistantRequest"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden" | "quota_exceeded";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    deleteAssistant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            204: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    regenerateAssistantWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    takeAssistantOwnership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Assistant"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    receiveWebhook: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path: {
                webhookId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookPayload"];
            };
        };
        responses: {
            202: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAcknowledgment"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
            503: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "service_unavailable";
                        };
                    };
                };
            };
        };
    };
    getWebhookExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                executionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookExecution"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "not_found";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    encodePayloads: {
        parameters: {
            query?: never;
            header?: {
                "X-Namespace"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodecPayloads"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodecPayloads"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    decodePayloads: {
        parameters: {
            query?: never;
            header?: {
                "X-Namespace"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CodecPayloads"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CodecPayloads"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    postMcpMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpMessage"];
            };
        };
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        result?: {
                            [key: string]: unknown;
                        };
                        error?: {
                            code: number;
                            message: string;
                        } & {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    "text/event-stream": string;
                };
            };
            202: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "payload_too_large";
                        };
                    };
                };
            };
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unsupported_media_type";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    getConsoleSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConsoleSettings"];
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "forbidden";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
    listGatewayRequests: {
        parameters: {
            query?: {
                limit?: number;
                offset?: number;
                model?: string;
                apiKeyId?: string;
                status?: string;
                from?: string;
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    "X-RateLimit-Limit"?: string;
                    "X-RateLimit-Remaining"?: string;
                    "X-RateLimit-Reset"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayRequestList"];
                };
            };
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "bad_request";
                        };
                    };
                };
            };
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "unauthorized";
                        };
                    };
                };
            };
            429: {
                headers: {
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "rate_limited";
                        };
                    };
                };
            };
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] & {
                        error?: {
                            /** @enum {unknown} */
                            code?: "internal_error";
                        };
                    };
                };
            };
        };
    };
}

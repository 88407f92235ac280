#!/usr/bin/env python3
"""A reference agent for eous's --planner exec (protocol 1), Python standard library only.

    eous run TASK.json --planner exec --agent 'python3 examples/agents/agent.py'

It reads eous's JSON lines on stdin (task, observation..., done), asks an
OpenAI-compatible chat completions endpoint for the next actions with the
action grammar eous sent as tools, and answers each observation with one JSON
line: {"actions": [tool call objects]} plus the model's usage.  It keeps one
conversation per task (each reply, its results as tool messages, the next
observation), so eous's deltas read against the view before them.

Environment: OPENAI_BASE_URL (default https://api.openai.com/v1), OPENAI_MODEL
(default gpt-4.1-mini), OPENAI_API_KEY.  Logs go to stderr, which eous keeps
beside the task's trace.  A researcher's starting point: change prompt() and
act() and keep the loop.
"""
import json
import os
import sys
import urllib.request

BASE = os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1").rstrip("/")
MODEL = os.environ.get("OPENAI_MODEL", "gpt-4.1-mini")
KEY = os.environ.get("OPENAI_API_KEY", "")


def log(*a):
    print("agent.py:", *a, file=sys.stderr, flush=True)


def prompt(task):
    """The system message: what the agent is and how it answers."""
    lines = "\n".join("- " + t for t in task["actions"]["text"])
    return ("You are a web agent in a browser. Reach the user's objective by acting on the page.\n"
            "Each observation is the page's view (ids in brackets), or, when it starts with "
            "'(changes since the last observation)', what changed since the view before it.\n"
            "Answer with tool calls, at most %d per answer; stop with the answer when done "
            "(N/A when it cannot be done).\nActions:\n%s" % (task["max_batch"], lines))


def first_message(task, obs):
    text = "OBJECTIVE: %s\n" % task.get("objective", task["intent"])
    if task["secrets"]:
        text += "SECRETS you may type as {{secret:NAME}} (filled in for you): %s\n" % ", ".join(task["secrets"])
    return text + observation_text(obs)


def observation_text(obs):
    return "URL: %s\n<observation>\n%s\n</observation>" % (obs["url"], obs["text"])


def chat(messages, tools, max_batch):
    body = {"model": MODEL, "messages": messages, "tools": tools, "temperature": 0, "max_tokens": 1024}
    if max_batch <= 1:
        body["parallel_tool_calls"] = False
    req = urllib.request.Request(BASE + "/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": "Bearer " + KEY})
    with urllib.request.urlopen(req, timeout=300) as r:
        return json.loads(r.read())


def act(reply):
    """The model's message as eous actions: its tool calls as {"name", "arguments"}, else its text."""
    msg = reply["choices"][0]["message"]
    calls = msg.get("tool_calls") or []
    if calls:
        return msg, [{"name": c["function"]["name"], "arguments": c["function"]["arguments"]} for c in calls]
    return msg, [(msg.get("content") or "").strip() or "stop [N/A]"]


def main():
    task, messages, tools, pending = None, [], [], []
    for raw in sys.stdin:
        m = json.loads(raw)
        if m["type"] == "task":
            if m["protocol"] != 1:
                log("protocol %s: this agent speaks 1" % m["protocol"])
                return 1
            task = m
            tools = [{"type": "function", "function": t} for t in m["actions"]["json"]]
            messages = [{"role": "system", "content": prompt(m)}]
        elif m["type"] == "observation":
            if len(messages) == 1:
                messages.append({"role": "user", "content": first_message(task, m)})
            else:
                # each tool call of the last reply gets its result, in order ("not run: ..." past the batch)
                for i, call_id in enumerate(pending):
                    res = m["last"][i] if i < len(m["last"]) else "not run: not reached"
                    messages.append({"role": "tool", "tool_call_id": call_id, "content": res})
                messages.append({"role": "user", "content": observation_text(m)})
            reply = chat(messages, tools, task["max_batch"])
            msg, actions = act(reply)
            messages.append({k: v for k, v in msg.items() if k in ("role", "content", "tool_calls")})
            pending = [c["id"] for c in msg.get("tool_calls") or []]
            if not pending and messages[-1].get("content") is None:
                messages[-1]["content"] = ""
            u = reply.get("usage") or {}
            out = {"actions": actions,
                   "usage": {"input_tokens": u.get("prompt_tokens", 0), "output_tokens": u.get("completion_tokens", 0)}}
            line = json.dumps(out)
            print(line, flush=True)
            log("task %s step %s: %s" % (task["task_id"], m["step"], line))  # what eous's trace quotes as agent_line
        elif m["type"] == "done":
            log("task %s: %s (score %s)" % (task["task_id"], m["status"], m["score"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

// One condition of a rule: its type chosen from a list, and the control that type's value needs (a
// list for device and system, a name and an optional value for a query parameter, a local date and
// time for a time window, text for the rest). Reads back as the API's condition, times in UTC.
import type { Condition, ConditionType } from "../../../src/links/rules.ts";
import type { MessageKey } from "../../i18n/index.ts";
import { el, t } from "../common.ts";
import { input, select } from "./editor-parts.ts";
import { dateTime, fromLocalInput, toLocalInput } from "./format.ts";
import { iconButton } from "./rows.ts";

// The server's vocabulary (src/links/rules.ts); operating systems by the names the stats show.
const CONDITION_TYPES: readonly ConditionType[] = ["device", "os", "browser", "language", "country", "query", "cidr", "after", "before"];
const DEVICES = ["desktop", "mobile", "tablet"] as const;
const SYSTEMS: Record<string, string> = { android: "Android", ios: "iOS", windows: "Windows", macos: "macOS", linux: "Linux", chromeos: "ChromeOS" };
/** Examples that are not words (a browser's name, a code, an address) need no translation. */
const PLACEHOLDERS: Partial<Record<ConditionType, string>> = { browser: "Chrome", language: "de, pt-BR", country: "DE", cidr: "203.0.113.0/24" };

export class ConditionRow {
  readonly element = el("li", "condition");
  readonly remove = iconButton("close", "", "remove-condition");
  private readonly type = select("condition-type", CONDITION_TYPES.map((c) => [c, t(`cond_${c}` as MessageKey)] as const));
  private readonly values = el("div", "condition-values");
  private value: HTMLInputElement | HTMLSelectElement = input("text", "");
  private key: HTMLInputElement | null = null;
  /** A stored time as shown (to the minute) and as stored, so an untouched one is sent back unchanged. */
  private keptTime: { shown: string; iso: string } | null = null;

  constructor(condition: Condition, onChange: () => void) {
    this.type.value = condition.type;
    this.build(condition);
    this.type.addEventListener("change", () => {
      this.build({ type: this.type.value as ConditionType } as Condition);
      onChange();
    });
    this.values.addEventListener("input", onChange);
    this.values.addEventListener("change", onChange);
    this.element.append(this.type, this.values, this.remove);
  }

  /** The controls for a condition of this type, holding its value when it has one. */
  private build(c: Condition): void {
    this.key = null;
    this.keptTime = null;
    const value = "value" in c ? (c.value ?? "") : "";
    switch (c.type) {
      case "device":
        this.value = select("condition-value", DEVICES.map((d) => [d, t(`device_${d}`)] as const));
        this.value.value = value || "mobile";
        break;
      case "os":
        this.value = select("condition-value", Object.entries(SYSTEMS));
        if (value) this.value.value = value;
        break;
      case "query":
        this.key = input("text", "condition-key", t("query_key_placeholder"));
        this.key.value = c.key ?? "";
        this.value = input("text", "condition-value", t("query_value_placeholder"));
        this.value.value = value;
        break;
      case "after":
      case "before":
        this.value = input("datetime-local", "condition-value");
        this.value.value = value ? toLocalInput(value) : "";
        if (value) this.keptTime = { shown: this.value.value, iso: value };
        break;
      default:
        this.value = input("text", "condition-value", PLACEHOLDERS[c.type] ?? "");
        this.value.value = value;
        if (c.type === "browser") this.value.setAttribute("list", "browser-options");
        if (c.type === "country") {
          this.value.maxLength = 2;
          this.value.setAttribute("autocapitalize", "characters");
        }
    }
    this.values.replaceChildren(...(this.key ? [this.key, this.value] : [this.value]));
  }

  get conditionType(): ConditionType {
    return this.type.value as ConditionType;
  }

  /** The condition as the API takes it; an unfilled value is sent as "" (the check says so first). */
  read(): Condition {
    const type = this.conditionType;
    const raw = this.value.value;
    if (type === "query") return raw === "" ? { type, key: this.key!.value.trim() } : { type, key: this.key!.value.trim(), value: raw };
    if (type === "after" || type === "before") {
      if (this.keptTime?.shown === raw) return { type, value: this.keptTime.iso };
      return { type, value: raw && !this.badTime() ? fromLocalInput(raw) : "" };
    }
    return { type, value: raw.trim() } as Condition;
  }

  /** What the dialog can tell without the server: a value (or a parameter name) left empty, a half-typed time. */
  check(): { text: string; field: HTMLElement } | null {
    if (this.key && this.key.value.trim() === "") return { text: t("err_rule_value_missing"), field: this.key };
    if (this.badTime()) return { text: t("err_expires_invalid"), field: this.value };
    if (this.conditionType !== "query" && this.value.value.trim() === "") return { text: t("err_rule_value_missing"), field: this.value };
    return null;
  }

  private badTime(): boolean {
    return this.value instanceof HTMLInputElement && this.value.validity.badInput;
  }

  /** Names the controls after the condition's place in its rule (Condition 2: type, …). */
  number(n: number, removable: boolean): void {
    this.type.setAttribute("aria-label", t("condition_type", { n }));
    this.value.setAttribute("aria-label", t(this.key ? "condition_query_value" : "condition_value", { n }));
    this.key?.setAttribute("aria-label", t("condition_key", { n }));
    this.remove.setAttribute("aria-label", t("condition_remove", { n }));
    this.remove.title = t("condition_remove", { n });
    this.remove.disabled = !removable;
  }

  /** The first control a problem of this condition points at. */
  get firstField(): HTMLElement {
    return this.key ?? this.value;
  }

  focus(): void {
    this.type.focus();
  }

  /** The condition in words, for the rule's summary ("device is Mobile"). */
  summary(): string {
    const c = this.read();
    const shown = (s: string | undefined) => (s ? s : "…");
    switch (c.type) {
      case "device":
        return t("summary_device", { value: t(`device_${c.value}`) });
      case "os":
        return t("summary_os", { value: SYSTEMS[c.value] ?? c.value });
      case "query":
        return c.value === undefined ? t("summary_query_any", { key: shown(c.key) }) : t("summary_query", { key: shown(c.key), value: c.value });
      case "after":
      case "before":
        return t(`summary_${c.type}`, { time: c.value ? dateTime(c.value) : "…" });
      default:
        return t(`summary_${c.type}`, { value: shown(c.value) });
    }
  }
}

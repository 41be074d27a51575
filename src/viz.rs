//! Drawing a module: Graphviz DOT with fusions as clusters, and a self-contained
//! HTML page with an SVG drawing (layered layout computed here, no network, no
//! external tools) that a person can open in a browser.

use std::collections::HashMap;
use std::fmt::Write;

use smelt_hlo::{CompId, InstId, Module, Opcode};
use smelt_passes::schedule::sequential_computations;

fn escape_dot(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// One line describing an instruction: `name = opcode shape`.
fn label(module: &Module, cid: CompId, id: InstId) -> String {
    let inst = module.comp(cid).inst(id);
    format!("{}\n{} {}", inst.name, inst.opcode, inst.shape)
}

/// Graphviz DOT: one subgraph per sequential computation, each fusion a cluster
/// holding its fused instructions.
pub fn to_dot(module: &Module) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", escape_dot(&module.name));
    out.push_str("  rankdir=TB;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n");
    for (ci, cid) in sequential_computations(module).into_iter().enumerate() {
        let comp = module.comp(cid);
        let _ =
            writeln!(out, "  subgraph cluster_c{ci} {{\n    label=\"{}\";\n    style=dashed;", escape_dot(&comp.name));
        let node = |id: InstId| format!("c{ci}_{}", id.index());
        for id in comp.post_order() {
            let inst = comp.inst(id);
            if inst.opcode == Opcode::Fusion {
                let body = module.comp(inst.called[0]);
                let _ = writeln!(
                    out,
                    "    subgraph cluster_{} {{\n      label=\"{} ({})\";\n      style=filled; fillcolor=\"#eef5ff\";",
                    node(id),
                    escape_dot(&inst.name),
                    escape_dot(&format!("{:?}", inst.attrs).replace("Fusion { kind: ", "").replace(" }", ""))
                );
                for bid in body.post_order() {
                    let b = body.inst(bid);
                    if b.opcode == Opcode::Parameter {
                        continue;
                    }
                    let _ = writeln!(
                        out,
                        "      {}_{} [label=\"{}\"];",
                        node(id),
                        bid.index(),
                        escape_dot(&label(module, inst.called[0], bid))
                    );
                    for &op in &b.operands {
                        if body.inst(op).opcode != Opcode::Parameter {
                            let _ = writeln!(out, "      {}_{} -> {}_{};", node(id), op.index(), node(id), bid.index());
                        }
                    }
                }
                let _ = writeln!(
                    out,
                    "      {} [label=\"{}\", shape=ellipse];",
                    node(id),
                    escape_dot(&label(module, cid, id))
                );
                let _ = writeln!(out, "      {}_{} -> {};", node(id), body.root.index(), node(id));
                out.push_str("    }\n");
            } else {
                let style = match inst.opcode {
                    Opcode::Parameter | Opcode::Constant => ", style=filled, fillcolor=\"#f4f4f4\"",
                    Opcode::Dot | Opcode::Convolution => ", style=filled, fillcolor=\"#ffe9c7\"",
                    _ => "",
                };
                let _ = writeln!(out, "    {} [label=\"{}\"{style}];", node(id), escape_dot(&label(module, cid, id)));
            }
            for &op in &inst.operands {
                let _ = writeln!(out, "    {} -> {};", node(op), node(id));
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

/// A self-contained HTML page drawing every sequential computation as layered SVG.
pub fn to_html(module: &Module) -> String {
    let mut body = String::new();
    for cid in sequential_computations(module) {
        body.push_str(&computation_svg(module, cid));
    }
    format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title>\n<style>\nbody {{ font-family: sans-serif; margin: 1em; }}\nsvg text {{ font-family: monospace; font-size: 11px; }}\n.fusion rect {{ fill: #eef5ff; stroke: #3b6fb6; }}\n.op rect {{ fill: #fff; stroke: #555; }}\n.leaf rect {{ fill: #f4f4f4; stroke: #999; }}\n.lib rect {{ fill: #ffe9c7; stroke: #b57a00; }}\nline {{ stroke: #999; }}\n</style></head><body>\n<h1>{title}</h1>\n<p>Boxes are kernels and values of each sequentially executed computation; blue boxes are fusions, listing the instructions they fuse; orange boxes are library calls.</p>\n{body}</body></html>\n",
        title = escape_html(&module.name)
    )
}

fn computation_svg(module: &Module, cid: CompId) -> String {
    let comp = module.comp(cid);
    let order = comp.post_order();
    // Layer = longest path from a leaf.
    let mut layer: HashMap<InstId, usize> = HashMap::new();
    for &id in &order {
        let l = comp.inst(id).operands.iter().map(|o| layer.get(o).map_or(0, |l| l + 1)).max().unwrap_or(0);
        layer.insert(id, l);
    }
    let layers = layer.values().copied().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<InstId>> = vec![Vec::new(); layers];
    for &id in &order {
        rows[layer[&id]].push(id);
    }
    let lines_of = |id: InstId| -> Vec<String> {
        let inst = comp.inst(id);
        let mut lines = vec![format!("{} = {}", inst.name, inst.opcode), inst.shape.to_string()];
        if inst.opcode == Opcode::Fusion {
            let fused = module.comp(inst.called[0]);
            for bid in fused.post_order() {
                let b = fused.inst(bid);
                if b.opcode != Opcode::Parameter {
                    lines.push(format!("  {}", b.opcode));
                }
            }
        }
        lines
    };
    let (char_w, line_h, gap_x, gap_y) = (7usize, 14usize, 24usize, 40usize);
    let mut pos: HashMap<InstId, (usize, usize, usize, usize)> = HashMap::new();
    let mut y = 10;
    let mut width = 0;
    for row in &rows {
        let mut x = 10;
        let mut row_h = 0;
        for &id in row {
            let lines = lines_of(id);
            let w = lines.iter().map(|l| l.len()).max().unwrap_or(4) * char_w + 12;
            let h = lines.len() * line_h + 8;
            pos.insert(id, (x, y, w, h));
            x += w + gap_x;
            row_h = row_h.max(h);
        }
        width = width.max(x);
        y += row_h + gap_y;
    }
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<h2>{}</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{y}\">",
        escape_html(&comp.name)
    );
    for &id in &order {
        let (x, y0, w, _) = pos[&id];
        for &op in &comp.inst(id).operands {
            let (ox, oy, ow, oh) = pos[&op];
            let _ =
                writeln!(svg, "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>", ox + ow / 2, oy + oh, x + w / 2, y0);
        }
    }
    for &id in &order {
        let inst = comp.inst(id);
        let class = match inst.opcode {
            Opcode::Fusion => "fusion",
            Opcode::Parameter | Opcode::Constant | Opcode::Tuple | Opcode::GetTupleElement => "leaf",
            Opcode::Dot | Opcode::Convolution | Opcode::Sort => "lib",
            _ => "op",
        };
        let (x, y0, w, h) = pos[&id];
        let _ =
            writeln!(svg, "<g class=\"{class}\"><rect x=\"{x}\" y=\"{y0}\" width=\"{w}\" height=\"{h}\" rx=\"4\"/>");
        for (i, line) in lines_of(id).iter().enumerate() {
            let _ = writeln!(svg, "<text x=\"{}\" y=\"{}\">{}</text>", x + 6, y0 + 14 + i * line_h, escape_html(line));
        }
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    svg
}

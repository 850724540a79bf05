package dev.leasecron.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A grouped bar chart drawn with Java 2D into a PNG (headless): one group per label, one bar per
 * series, each bar's value written above it; a log scale when values span decades. A missing value
 * (null) leaves its bar out and writes "n/a".
 */
final class BarChart {
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd)};

    private BarChart() {}

    static void write(Path file, String title, String yLabel, boolean log, List<String> groups, List<String> series,
            Double[][] values) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int width = Math.max(900, 120 + groups.size() * (series.size() * 34 + 40));
        int height = 520;
        int left = 90;
        int right = 30;
        int top = 70;
        int bottom = 90;
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.drawString(title, left, 28);

        double max = 0;
        double min = Double.MAX_VALUE;
        for (Double[] row : values) {
            for (Double v : row) {
                if (v != null && v > 0) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        if (max == 0) {
            max = 1;
            min = 1;
        }
        double lo = log ? Math.pow(10, Math.floor(Math.log10(min))) : 0;
        double hi = log ? Math.pow(10, Math.ceil(Math.log10(max * 1.01))) : niceCeil(max * 1.1);
        int plotH = height - top - bottom;
        int plotW = width - left - right;
        java.util.function.DoubleUnaryOperator y = v -> {
            double f = log ? (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : v / hi;
            return top + plotH - f * plotH;
        };

        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setStroke(new BasicStroke(1));
        List<Double> ticks = new java.util.ArrayList<>();
        if (log) {
            for (double t = lo; t <= hi * 1.0001; t *= 10) {
                ticks.add(t);
            }
        } else {
            for (int i = 0; i <= 5; i++) {
                ticks.add(hi * i / 5);
            }
        }
        for (double t : ticks) {
            int ty = (int) y.applyAsDouble(t);
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, ty, left + plotW, ty);
            g.setColor(Color.DARK_GRAY);
            String s = format(t);
            g.drawString(s, left - 8 - g.getFontMetrics().stringWidth(s), ty + 4);
        }
        g.setColor(Color.BLACK);
        g.drawLine(left, top, left, top + plotH);
        g.drawLine(left, top + plotH, left + plotW, top + plotH);
        Graphics2D rotated = (Graphics2D) g.create();
        rotated.rotate(-Math.PI / 2);
        rotated.drawString(yLabel + (log ? " (log scale)" : ""), -(top + plotH / 2 + 60), 20);
        rotated.dispose();

        double groupW = (double) plotW / groups.size();
        double barW = Math.min(40, (groupW - 20) / series.size());
        FontMetrics fm = g.getFontMetrics();
        for (int gi = 0; gi < groups.size(); gi++) {
            double gx = left + gi * groupW + (groupW - barW * series.size()) / 2;
            for (int si = 0; si < series.size(); si++) {
                Double v = values[gi][si];
                int bx = (int) (gx + si * barW);
                g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                if (v == null) {
                    g.setColor(Color.GRAY);
                    g.drawString("n/a", bx + 2, top + plotH - 4);
                    continue;
                }
                int by = (int) y.applyAsDouble(v);
                g.setColor(COLORS[si % COLORS.length]);
                g.fillRect(bx + 1, by, (int) barW - 2, top + plotH - by);
                g.setColor(Color.BLACK);
                String s = format(v);
                g.drawString(s, bx + (int) (barW - g.getFontMetrics().stringWidth(s)) / 2, by - 3);
            }
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            g.setColor(Color.BLACK);
            String label = groups.get(gi);
            g.drawString(label, (int) (left + gi * groupW + (groupW - fm.stringWidth(label)) / 2), top + plotH + 18);
        }
        int lx = left;
        for (int si = 0; si < series.size(); si++) {
            g.setColor(COLORS[si % COLORS.length]);
            g.fillRect(lx, height - 40, 14, 14);
            g.setColor(Color.BLACK);
            g.drawString(series.get(si), lx + 20, height - 28);
            lx += 40 + fm.stringWidth(series.get(si));
        }
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    private static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String format(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}

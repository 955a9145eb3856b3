// The part of leaflet.markercluster 1.5 that Carhere uses (the package ships no types).
import 'leaflet';

declare module 'leaflet' {
  interface MarkerClusterGroupOptions extends LayerOptions {
    maxClusterRadius?: number | ((zoom: number) => number);
    disableClusteringAtZoom?: number;
    spiderfyOnMaxZoom?: boolean;
    showCoverageOnHover?: boolean;
    zoomToBoundsOnClick?: boolean;
    removeOutsideVisibleBounds?: boolean;
    animate?: boolean;
    animateAddingMarkers?: boolean;
    chunkedLoading?: boolean;
    chunkInterval?: number;
    chunkDelay?: number;
    iconCreateFunction?: (cluster: MarkerCluster) => Icon | DivIcon;
  }

  class MarkerCluster extends Marker {
    getChildCount(): number;
    getAllChildMarkers(): Marker[];
  }

  class MarkerClusterGroup extends FeatureGroup {
    constructor(options?: MarkerClusterGroupOptions);
    addLayers(layers: Layer[], skipLayerAddEvent?: boolean): this;
    removeLayers(layers: Layer[]): this;
    clearLayers(): this;
    refreshClusters(layers?: Layer | Layer[]): this;
    zoomToShowLayer(layer: Marker, callback?: () => void): void;
    getVisibleParent(marker: Marker): Marker | null;
    hasLayer(layer: Layer): boolean;
  }

  function markerClusterGroup(options?: MarkerClusterGroupOptions): MarkerClusterGroup;
}
